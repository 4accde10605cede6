// `npm run test:timings`: reads the per-file results the last `npm test` wrote
// (tests/artifacts/vitest-results.json, Vitest's JSON reporter) and writes their summary to
// docs/test-timings.md: each project's files, tests and time, and every file's duration.
import { readFileSync, writeFileSync } from "node:fs";
import { matchesGlob, relative } from "node:path";
import { machine } from "../bench/table";
import { PROCESS_FILES } from "../vitest.config";

const ROOT = new URL("..", import.meta.url).pathname;
const RESULTS = new URL("../tests/artifacts/vitest-results.json", import.meta.url);
const PAGE = new URL("../docs/test-timings.md", import.meta.url);

/** What the JSON reporter writes, as far as this reads it. */
interface Results {
  numTotalTests: number;
  numFailedTests: number;
  startTime: number;
  testResults: { name: string; startTime: number; endTime: number; assertionResults: unknown[] }[];
}

// The projects of vitest.config.ts, told apart by path as its include lists do.

function projectOf(file: string): string {
  if (file.endsWith(".stories.tsx")) return "storybook";
  if (PROCESS_FILES.some((glob) => matchesGlob(file, glob))) return "processes";
  return "unit";
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

const results = JSON.parse(readFileSync(RESULTS, "utf8")) as Results;
const files = results.testResults
  .map((result) => ({
    file: relative(ROOT, result.name),
    tests: result.assertionResults.length,
    ms: result.endTime - result.startTime,
    end: result.endTime,
  }))
  .map((entry) => ({ ...entry, project: projectOf(entry.file) }))
  .sort((a, b) => b.ms - a.ms);
const wall = Math.max(...files.map((entry) => entry.end)) - results.startTime;
const projects = [...new Set(files.map((entry) => entry.project))].map((project) => {
  const own = files.filter((entry) => entry.project === project);
  return {
    project,
    files: own.length,
    tests: own.reduce((sum, entry) => sum + entry.tests, 0),
    ms: own.reduce((sum, entry) => sum + entry.ms, 0),
  };
});
const total = files.reduce((sum, entry) => sum + entry.ms, 0);

const lines = [
  "# Test timings",
  "",
  "Written by `npm run test:timings` from the per-file results of the last `npm test`",
  "(`tests/artifacts/vitest-results.json`); how the suite is split and why is in",
  "[conventions.md](conventions.md#test-files-that-wait-on-other-processes). Durations on a shared",
  "machine vary with its load: read the shares, not the seconds.",
  "",
  `Measured ${new Date(results.startTime).toISOString().slice(0, 16).replace("T", " ")} UTC on ${machine()}: ` +
    `${results.numTotalTests} tests (${results.numFailedTests} failed) in ${files.length} files, ` +
    `${seconds(wall)} from the first file's start to the last file's end.`,
  "",
  "| Project | Files | Tests | Sum of file durations | Share |",
  "| --- | --- | --- | --- | --- |",
  ...projects.map(
    (entry) =>
      `| ${entry.project} | ${entry.files} | ${entry.tests} | ${seconds(entry.ms)} | ${Math.round((entry.ms / total) * 100)}% |`,
  ),
  "",
  "| File | Project | Tests | Duration |",
  "| --- | --- | --- | --- |",
  ...files.map((entry) => `| \`${entry.file}\` | ${entry.project} | ${entry.tests} | ${seconds(entry.ms)} |`),
  "",
];
writeFileSync(PAGE, lines.join("\n"));
console.log(`docs/test-timings.md: ${files.length} files, ${results.numTotalTests} tests, ${seconds(wall)}`);
