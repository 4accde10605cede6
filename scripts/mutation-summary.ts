// `npm run mutation:summary`: the score of each part and file, and every mutant that survived,
// read from the JSON reports `npm run mutation` wrote (reports/mutation/core.json, server.json).
import { existsSync, readFileSync } from "node:fs";

/** What Stryker's JSON report holds, as far as this reads it. */
interface Report {
  files: Record<
    string,
    {
      source: string;
      mutants: {
        mutatorName: string;
        replacement?: string;
        status: string;
        location: { start: { line: number; column: number }; end: { line: number; column: number } };
      }[];
    }
  >;
}

// Stryker's own score: killed and timed-out mutants over every valid one (no coverage included).
const DETECTED = new Set(["Killed", "Timeout"]);
const UNDETECTED = new Set(["Survived", "NoCoverage"]);

for (const part of ["core", "server"]) {
  const path = `reports/mutation/${part}.json`;
  if (!existsSync(path)) {
    console.log(`${part}: no report (run npm run mutation:${part})`);
    continue;
  }
  const report = JSON.parse(readFileSync(path, "utf8")) as Report;
  let detected = 0;
  let valid = 0;
  const survivors: string[] = [];
  const perFile: string[] = [];
  for (const [file, { source, mutants }] of Object.entries(report.files)) {
    const lines = source.split("\n");
    let fileDetected = 0;
    let fileValid = 0;
    for (const mutant of mutants) {
      if (DETECTED.has(mutant.status)) fileDetected++;
      if (DETECTED.has(mutant.status) || UNDETECTED.has(mutant.status)) fileValid++;
      if (UNDETECTED.has(mutant.status)) {
        const { line, column } = mutant.location.start;
        const original = (lines[line - 1] ?? "").trim().slice(0, 100);
        survivors.push(
          `${file}:${line}:${column} ${mutant.status} ${mutant.mutatorName}: ${JSON.stringify(mutant.replacement ?? "")} in ${original}`,
        );
      }
    }
    detected += fileDetected;
    valid += fileValid;
    perFile.push(`  ${file}: ${((100 * fileDetected) / Math.max(1, fileValid)).toFixed(1)}% of ${fileValid}`);
  }
  console.log(
    `${part}: ${((100 * detected) / Math.max(1, valid)).toFixed(2)}% (${detected} of ${valid} detected)`,
  );
  console.log(perFile.join("\n"));
  console.log(survivors.map((line) => `  - ${line}`).join("\n"));
}
