import { arch, cpus, platform, release, totalmem } from "node:os";
import type { BenchRow, HistoricalFigure } from "./result";

/** A row as the page keeps it: the figures, when they were measured, and on which machine. */
export interface TableRow extends BenchRow {
  /** When the row was measured, `YYYY-MM-DD HH:MM UTC`. */
  measured: string;
  /** The machine it was measured on, as `machine()` describes it. */
  machine: string;
}

const HEADER = ["Id", "Metric", "Baseline", "Ours", "Ratio", "Target", "Result", "Measured"];
const MACHINES = "Machines:";
const HISTORY = "Figures from older code, which these runs did not measure again:";

/** The machine a row was measured on, in one line. */
export function machine(): string {
  const cores = cpus();
  const model = cores[0]?.model.trim() ?? "unknown CPU";
  const memory = Math.round(totalmem() / 2 ** 30);
  return `${cores.length} × ${model}, ${memory} GiB, ${platform()} ${release()} ${arch()}, Node ${process.version}`;
}

/** A moment as the table writes it. */
export function measuredAt(date: Date): string {
  return `${date.toISOString().slice(0, 16).replace("T", " ")} UTC`;
}

function cell(text: string): string {
  return text.replaceAll("|", "\\|").replaceAll("\n", " ");
}

function cells(line: string): string[] {
  return line
    .trim()
    .replace(/^\|/, "")
    .replace(/(?<!\\)\|$/, "")
    .split(/(?<!\\)\|/)
    .map((text) => text.trim().replaceAll("\\|", "|"));
}

function result(pass: BenchRow["pass"]): string {
  return typeof pass === "string" ? pass : pass ? "pass" : "FAIL";
}

function pass(text: string): BenchRow["pass"] {
  if (text === "pass") return true;
  if (text === "FAIL") return false;
  if (text === "reported" || text === "not measured") return text;
  throw new Error(`a row's result is "${text}", not pass, FAIL, reported or not measured`);
}

const footnote = (id: string) => `[^${id}]`;
const machineLetter = (index: number) => String.fromCharCode(65 + index);

/**
 * The page's table: one row per metric with its own date and machine (a letter, listed below the
 * table), and each figure from older code as a footnote rather than a baseline.
 */
export function markdownTable(rows: readonly TableRow[]): string {
  const machines = [...new Set(rows.map((row) => row.machine))];
  const lines = [`| ${HEADER.join(" | ")} |`, `|${" --- |".repeat(HEADER.length)}`];
  for (const row of rows) {
    const baseline = row.history ? `${row.baseline} ${footnote(row.id)}` : row.baseline;
    const measured = `${row.measured} on ${machineLetter(machines.indexOf(row.machine))}`;
    const values = [`\`${row.id}\``, row.metric, baseline, row.ours, row.ratio, row.target, result(row.pass)];
    lines.push(`| ${[...values, measured].map(cell).join(" | ")} |`);
  }
  lines.push("", MACHINES, "");
  for (const [index, name] of machines.entries()) lines.push(`- ${machineLetter(index)}: ${name}`);
  const histories = rows.filter((row) => row.history);
  if (histories.length > 0) {
    lines.push("", HISTORY, "");
    for (const row of histories) {
      const { figure, commit, date } = row.history as HistoricalFigure;
      lines.push(`${footnote(row.id)}: ${figure} (commit ${commit}, ${date}).`);
    }
  }
  return lines.join("\n");
}

/** Reads back what `markdownTable` wrote; throws, naming the line, on anything else. */
export function parseTable(text: string): TableRow[] {
  const lines = text.split("\n").map((line) => line.trim());
  const header = lines.findIndex((line) => line.startsWith("| Id |"));
  if (header === -1) throw new Error("the benchmark table has no header row (| Id | Metric | …)");
  if (cells(lines[header] ?? "").join() !== HEADER.join()) {
    throw new Error(`the benchmark table's header is "${lines[header]}", not | ${HEADER.join(" | ")} |`);
  }
  const machines = new Map<string, string>();
  const histories = new Map<string, HistoricalFigure>();
  for (const line of lines) {
    const listed = /^- ([A-Z]): (.+)$/.exec(line);
    if (listed) machines.set(listed[1] as string, listed[2] as string);
    const note = /^\[\^([^\]]+)\]: (.+) \(commit ([0-9a-f]{7,40}), (\d{4}-\d{2}-\d{2})\)\.$/.exec(line);
    if (note) {
      histories.set(note[1] as string, {
        figure: note[2] as string,
        commit: note[3] as string,
        date: note[4] as string,
      });
    }
  }
  const rows: TableRow[] = [];
  for (const line of lines.slice(header + 2)) {
    if (!line.startsWith("|")) break;
    const values = cells(line);
    if (values.length !== HEADER.length) {
      throw new Error(`a benchmark row has ${values.length} cells, not ${HEADER.length}: ${line}`);
    }
    const [id, metric, baseline, ours, ratio, target, outcome, measured] = values as [
      string,
      string,
      string,
      string,
      string,
      string,
      string,
      string,
    ];
    const bareId = id.replace(/^`(.*)`$/, "$1");
    const when = /^(\d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC) on ([A-Z])$/.exec(measured);
    const host = when && machines.get(when[2] as string);
    if (!when || !host) {
      throw new Error(
        `row ${bareId} says when it was measured as "${measured}", not a date on a listed machine`,
      );
    }
    const history = histories.get(bareId);
    const mark = ` ${footnote(bareId)}`;
    if (history && !baseline.endsWith(mark)) throw new Error(`row ${bareId} does not point to its footnote`);
    rows.push({
      id: bareId,
      metric,
      baseline: history ? baseline.slice(0, -mark.length) : baseline,
      ours,
      ratio,
      target,
      pass: pass(outcome),
      ...(history ? { history } : {}),
      measured: when[1] as string,
      machine: host,
    });
  }
  return rows;
}

/**
 * The table after a run: the rows it measured replace every row of the benchmarks it ran; the
 * rest stay as they were, each with its own date. Rows follow `order` (the declared ids).
 */
export function mergeRows(
  previous: readonly TableRow[],
  measured: readonly TableRow[],
  replaced: ReadonlySet<string>,
  order: readonly string[],
): TableRow[] {
  const kept = previous.filter((row) => !replaced.has(row.id) && order.includes(row.id));
  return [...kept, ...measured].sort((a, b) => order.indexOf(a.id) - order.indexOf(b.id));
}
