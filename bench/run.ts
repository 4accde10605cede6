// `npm run bench`: runs every benchmark, prints one table, and keeps it in docs/benchmarks.md.
import { readFileSync, writeFileSync } from "node:fs";
import { answerLatency } from "./answer-latency";
import { answerThroughput } from "./answer-throughput";
import { bundleSize } from "./bundle-size";
import { foldCost } from "./fold-cost";
import { keystrokeRenders } from "./keystroke-renders";
import { parkedRuns } from "./parked-runs";
import type { BenchRow } from "./result";
import { machine, markdownTable } from "./table";
import { transcriptCost } from "./transcript-cost";

const DOC = new URL("../docs/benchmarks.md", import.meta.url);
const START = "<!-- bench:start -->";
const END = "<!-- bench:end -->";

const BENCHMARKS: readonly { name: string; run: () => Promise<BenchRow | BenchRow[]> }[] = [
  { name: "Size", run: bundleSize },
  { name: "Renders: keystroke", run: keystrokeRenders },
  { name: "Transcript cost", run: transcriptCost },
  { name: "Fold cost", run: foldCost },
  { name: "Answer to continuation (PGlite)", run: () => answerLatency("pglite") },
  { name: "Answer to continuation (PostgreSQL)", run: () => answerLatency("postgres") },
  { name: "Answer throughput (PGlite)", run: () => answerThroughput("pglite") },
  { name: "Answer throughput (PostgreSQL)", run: () => answerThroughput("postgres") },
  { name: "Parked runs", run: parkedRuns },
];

async function main(): Promise<void> {
  const rows: BenchRow[] = [];
  const started = Date.now();
  for (const benchmark of BENCHMARKS) {
    const began = Date.now();
    process.stderr.write(`bench: ${benchmark.name}… `);
    try {
      const result = await benchmark.run();
      rows.push(...(Array.isArray(result) ? result : [result]));
      process.stderr.write(`${((Date.now() - began) / 1000).toFixed(1)} s\n`);
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      process.stderr.write(`failed: ${reason}\n`);
      rows.push({
        metric: benchmark.name,
        baseline: "—",
        ours: `could not be measured: ${reason.split("\n")[0]}`,
        ratio: "—",
        target: "—",
        pass: "not measured",
      });
    }
  }
  const table = markdownTable(rows);
  const measured = `Measured ${new Date().toISOString().slice(0, 16).replace("T", " ")} UTC on ${machine()}, in ${Math.round((Date.now() - started) / 1000)} s.`;
  console.log(`${table}\n\n${measured}`);
  const doc = readFileSync(DOC, "utf8");
  const from = doc.indexOf(START);
  const to = doc.indexOf(END);
  if (from === -1 || to === -1) throw new Error(`docs/benchmarks.md lacks the ${START} … ${END} markers`);
  writeFileSync(DOC, `${doc.slice(0, from + START.length)}\n\n${measured}\n\n${table}\n\n${doc.slice(to)}`);
  // Servers, clusters and pools may hold the event loop open; every one was closed above.
  process.exit(0);
}

await main();
