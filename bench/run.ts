// `npm run bench`: runs every benchmark, prints one table, and keeps it in docs/benchmarks.md.
import { readFileSync, writeFileSync } from "node:fs";
import { answerLatency } from "./answer-latency";
import { answerThroughput } from "./answer-throughput";
import { bundleSize } from "./bundle-size";
import { crashRecovery } from "./crash-recovery";
import { foldCost } from "./fold-cost";
import { keystrokeRenders } from "./keystroke-renders";
import { largeThread } from "./large-thread";
import { parkedRuns } from "./parked-runs";
import { peerResults } from "./peers";
import { type BenchRow, figure, median, quantile } from "./result";
import { runBurst } from "./run-burst";
import { statementsPerRun } from "./statements";
import { stopBenchCluster } from "./store-under-test";
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
  {
    name: "Answer to continuation (PostgreSQL)",
    run: () =>
      answerLatency("postgres", async () => {
        const dbos = (await peerResults()).dbos;
        if (!dbos) throw new Error("DBOS was not measured");
        return dbos.latencies;
      }),
  },
  { name: "Peers: answer to next step", run: peerLatencyRows },
  { name: "Continued runs (PGlite)", run: () => answerThroughput("pglite") },
  { name: "Continued runs (PostgreSQL)", run: () => answerThroughput("postgres", peerResults) },
  { name: "Statements per run", run: statementsPerRun },
  { name: "Burst of runs (PostgreSQL)", run: () => runBurst("postgres") },
  { name: "Burst of runs (PGlite)", run: () => runBurst("pglite") },
  { name: "Crash recovery", run: crashRecovery },
  { name: "Parked runs", run: parkedRuns },
  { name: "Large threads", run: largeThread },
];

/** Each peer's own answer → next step, for reading ours against. */
async function peerLatencyRows(): Promise<BenchRow[]> {
  const peers = await peerResults();
  return Object.entries(peers).map(([name, figures]) => ({
    metric: `${name}: answer → the workflow's next step, p50 / p99 (PostgreSQL)`,
    baseline: "—",
    ours: `${figure(median(figures.latencies), "ms")} / ${figure(quantile(figures.latencies, 0.99), "ms")}`,
    ratio: "—",
    target: "—",
    pass: "reported",
  }));
}

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
  await stopBenchCluster();
  // Servers, clusters and pools may hold the event loop open; every one was closed above.
  process.exit(0);
}

await main();
