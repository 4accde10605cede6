// `npm run bench`: runs every benchmark (or, with `--only a,b`, those) and writes their rows into
// the table of docs/benchmarks.md, the only writer of that table. `--list` prints the benchmarks.
// It runs under tsconfig.bench.json, after `prebench` builds the package: `prepick/server` and the
// package's other names are the published JavaScript in dist/package/, not the sources.
import { readFileSync, writeFileSync } from "node:fs";
import { BENCHMARKS, type Benchmark, declaredMetrics, selectBenchmarks } from "./benchmarks";
import type { BenchRow } from "./result";
import { machine, markdownTable, measuredAt, mergeRows, parseTable, type TableRow } from "./table";

const DOC = new URL("../docs/benchmarks.md", import.meta.url);
const START = "<!-- bench:start -->";
const END = "<!-- bench:end -->";

/** One benchmark's rows, each checked against the ids it declares; a failure marks them all. */
async function measure(benchmark: Benchmark, host: string): Promise<TableRow[]> {
  const began = Date.now();
  process.stderr.write(`bench: ${benchmark.key}… `);
  let rows: BenchRow[];
  try {
    const result = await benchmark.run();
    rows = Array.isArray(result) ? result : [result];
    const stray = rows.filter((row) => !benchmark.metrics.includes(row.id));
    if (stray.length > 0) {
      throw new Error(
        `wrote ${stray.map((row) => row.id).join(", ")}, which ${benchmark.key} does not declare`,
      );
    }
    process.stderr.write(`${((Date.now() - began) / 1000).toFixed(1)} s\n`);
  } catch (error) {
    const reason = (error instanceof Error ? error.message : String(error)).split("\n")[0] ?? "";
    process.stderr.write(`failed: ${reason}\n`);
    rows = benchmark.metrics.map((id) => ({
      id,
      metric: `${benchmark.key} (${id})`,
      baseline: "—",
      ours: `could not be measured: ${reason}`,
      ratio: "—",
      target: "—",
      pass: "not measured",
    }));
  }
  const measured = measuredAt(new Date());
  return rows.map((row) => ({ ...row, measured, machine: host }));
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  if (args.includes("--list")) {
    for (const benchmark of BENCHMARKS) console.log(`${benchmark.key}: ${benchmark.metrics.join(", ")}`);
    return;
  }
  const benchmarks = selectBenchmarks(args);
  const host = machine();
  const measured: TableRow[] = [];
  try {
    for (const benchmark of benchmarks) measured.push(...(await measure(benchmark, host)));
  } finally {
    const { stopBenchCluster } = await import("./store-under-test");
    await stopBenchCluster();
  }
  const doc = readFileSync(DOC, "utf8");
  const from = doc.indexOf(START);
  const to = doc.indexOf(END);
  if (from === -1 || to === -1) throw new Error(`docs/benchmarks.md lacks the ${START} … ${END} markers`);
  const previous = benchmarks === BENCHMARKS ? [] : parseTable(doc.slice(from, to));
  const replaced = new Set(benchmarks.flatMap((benchmark) => benchmark.metrics));
  const table = markdownTable(mergeRows(previous, measured, replaced, declaredMetrics()));
  console.log(markdownTable(measured));
  writeFileSync(DOC, `${doc.slice(0, from + START.length)}\n\n${table}\n\n${doc.slice(to)}`);
}

await main();
// Servers, clusters and pools may hold the event loop open; every one was closed above.
process.exit(0);
