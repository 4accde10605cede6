/** One row of the benchmark table. */
export interface BenchRow {
  /**
   * The row's stable name, one of the `metrics` its benchmark declares in `bench/benchmarks.ts`
   * (`<area>.<what>`, lowercase): the table keys its rows by it, so a subset run replaces exactly
   * the rows it measured again.
   */
  id: string;
  /** What is measured, in words (it may hold the run's own counts). */
  metric: string;
  /** The baseline's figure measured in the same run, with its unit, or "—" when there is none. */
  baseline: string;
  /** Our figure, with its unit. */
  ours: string;
  /** Ours against the baseline, as the target reads it (or a count). */
  ratio: string;
  /** The target, in words. */
  target: string;
  /** Whether the target was met; `reported` for a figure with no target of its own. */
  pass: boolean | "reported" | "not measured";
  /**
   * A figure from older code this row is read against, which this run cannot measure again: it
   * stays out of the Baseline column and is printed as a footnote naming its commit and date.
   */
  history?: HistoricalFigure;
}

/** A figure measured on older code, kept for reading a row against, never as its baseline. */
export interface HistoricalFigure {
  /** The figure, with its unit and what it measured. */
  figure: string;
  /** The commit whose code it was measured on (or recorded in), short hash. */
  commit: string;
  /** That commit's date, `YYYY-MM-DD`. */
  date: string;
}

/** A figure rounded for the table. */
export function figure(value: number, unit: string, digits = 2): string {
  return `${Number(value.toFixed(digits))} ${unit}`;
}

/** The `q`-th quantile (0..1) of some numbers, by nearest rank. */
export function quantile(values: readonly number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1));
  return sorted[rank] ?? Number.NaN;
}

/** The median of some numbers. */
export function median(values: readonly number[]): number {
  return quantile(values, 0.5);
}
