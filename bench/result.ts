/** One row of the benchmark table. */
export interface BenchRow {
  /** What is measured. */
  metric: string;
  /** The baseline's figure, with its unit (or a note when there is none). */
  baseline: string;
  /** Our figure, with its unit. */
  ours: string;
  /** Ours against the baseline, as the target reads it (or a count). */
  ratio: string;
  /** The target, in words. */
  target: string;
  /** Whether the target was met; `reported` for a figure with no target of its own. */
  pass: boolean | "reported" | "not measured";
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
