import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { BENCHMARKS, declaredMetrics, selectBenchmarks } from "./benchmarks";
import { markdownTable, mergeRows, parseTable, type TableRow } from "./table";

const page = readFileSync(new URL("../docs/benchmarks.md", import.meta.url), "utf8");
const block = page.slice(page.indexOf("<!-- bench:start -->"), page.indexOf("<!-- bench:end -->"));

function row(id: string, measured: string, machine = "2 × Test CPU"): TableRow {
  return {
    id,
    metric: `what ${id} measures | with a pipe`,
    baseline: "1 ms (the same run's floor)",
    ours: "2 ms",
    ratio: "2 ×",
    target: "≤ 3×",
    pass: true,
    measured,
    machine,
  };
}

describe("the benchmark table in docs/benchmarks.md", () => {
  const rows = parseTable(block);

  it("parses, and every row names a metric a benchmark of `npm run bench` writes", () => {
    expect(rows.length).toBeGreaterThan(0);
    const declared = new Set(declaredMetrics());
    expect(rows.map((entry) => entry.id).filter((id) => !declared.has(id))).toEqual([]);
  });

  it("has one row per metric, in the runner's order, each dated on a listed machine", () => {
    const ids = rows.map((entry) => entry.id);
    expect(new Set(ids).size).toBe(ids.length);
    const order = declaredMetrics();
    expect([...ids].sort((a, b) => order.indexOf(a) - order.indexOf(b))).toEqual(ids);
    for (const entry of rows) expect(entry.measured).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC$/);
  });

  it("is exactly what the runner would write for those rows", () => {
    expect(block.trim()).toBe(`<!-- bench:start -->\n\n${markdownTable(rows)}`);
  });
});

describe("the benchmarks' declarations", () => {
  it("give each benchmark a unique key and each row a unique id of the form area.what", () => {
    const keys = BENCHMARKS.map((benchmark) => benchmark.key);
    expect(new Set(keys).size).toBe(keys.length);
    const ids = declaredMetrics();
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) expect(id).toMatch(/^[a-z0-9-]+(\.[a-z0-9-]+)+$/);
  });

  it("let --only pick benchmarks by key, and refuse a key no benchmark has", () => {
    expect(selectBenchmarks([])).toBe(BENCHMARKS);
    expect(selectBenchmarks(["--only", "size,statements"]).map((benchmark) => benchmark.key)).toEqual([
      "size",
      "statements",
    ]);
    expect(selectBenchmarks(["--only=burst-pglite"]).map((benchmark) => benchmark.key)).toEqual([
      "burst-pglite",
    ]);
    expect(() => selectBenchmarks(["--only", "size,sise"])).toThrow(/"sise" is none of: size, /);
    expect(() => selectBenchmarks(["--only"])).toThrow(/--only takes benchmark keys/);
  });
});

describe("a subset run", () => {
  const order = ["a.one", "a.two", "b.one", "c.one"];
  const before = [
    row("a.one", "2026-12-01 10:00 UTC"),
    row("a.two", "2026-12-01 10:00 UTC"),
    row("b.one", "2026-12-01 10:00 UTC"),
  ];

  it("replaces every row of the benchmarks it ran and keeps the others with their own dates", () => {
    const after = mergeRows(
      before,
      [row("a.one", "2026-12-03 09:30 UTC", "1 × Other CPU")],
      new Set(["a.one", "a.two"]),
      order,
    );
    expect(after.map((entry) => [entry.id, entry.measured])).toEqual([
      ["a.one", "2026-12-03 09:30 UTC"],
      ["b.one", "2026-12-01 10:00 UTC"],
    ]);
  });

  it("drops a row whose id no benchmark declares any more", () => {
    const after = mergeRows([...before, row("gone.old", "2026-11-30 08:00 UTC")], [], new Set(), order);
    expect(after.map((entry) => entry.id)).toEqual(["a.one", "a.two", "b.one"]);
  });

  it("writes a table that reads back as the same rows, machines and footnotes included", () => {
    const rows = [
      row("a.one", "2026-12-01 10:00 UTC"),
      {
        ...row("b.one", "2026-12-03 09:30 UTC", "1 × Other CPU"),
        baseline: "—",
        pass: "reported" as const,
        history: { figure: "7 statements, before the fold", commit: "962692d", date: "2026-12-02" },
      },
      { ...row("c.one", "2026-12-03 09:31 UTC"), pass: false },
    ];
    const text = markdownTable(rows);
    expect(text).toContain("| — [^b.one] |");
    expect(text).toContain("[^b.one]: 7 statements, before the fold (commit 962692d, 2026-12-02).");
    expect(text).toContain("- B: 1 × Other CPU");
    expect(parseTable(text)).toEqual(rows);
  });

  it("refuses a table a person edited out of shape", () => {
    const text = markdownTable([row("a.one", "2026-12-01 10:00 UTC")]);
    expect(() => parseTable(text.replace("on A |", "on Z |"))).toThrow(/row a.one says when it was measured/);
    expect(() => parseTable(text.replace("| pass |", "| passed |"))).toThrow(/"passed"/);
    expect(() => parseTable(text.replace(" | 2 ms |", " |"))).toThrow(/7 cells, not 8/);
  });
});
