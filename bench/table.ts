import { arch, cpus, platform, release, totalmem } from "node:os";
import type { BenchRow } from "./result";

/** The machine a table was measured on, in one line. */
export function machine(): string {
  const cores = cpus();
  const model = cores[0]?.model.trim() ?? "unknown CPU";
  const memory = Math.round(totalmem() / 2 ** 30);
  return `${cores.length} × ${model}, ${memory} GiB, ${platform()} ${release()} ${arch()}, Node ${process.version}`;
}

function cell(text: string): string {
  return text.replaceAll("|", "\\|").replaceAll("\n", " ");
}

/** The rows as a Markdown table: metric, baseline, ours, ratio, target, pass/fail. */
export function markdownTable(rows: readonly BenchRow[]): string {
  const lines = [
    "| Metric | Baseline | Ours | Ratio | Target | Result |",
    "| --- | --- | --- | --- | --- | --- |",
  ];
  for (const row of rows) {
    const result = typeof row.pass === "string" ? row.pass : row.pass ? "pass" : "FAIL";
    lines.push(
      `| ${[row.metric, row.baseline, row.ours, row.ratio, row.target, result].map(cell).join(" | ")} |`,
    );
  }
  return lines.join("\n");
}
