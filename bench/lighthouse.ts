// Lighthouse's mobile audit of the demo page as `npm start` serves it: the median of three runs.
// `npm run bench -- --only lighthouse` writes its rows; `npx tsx bench/lighthouse.ts` prints them.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { launch } from "chrome-launcher";
import lighthouse from "lighthouse";
import { ensureBuilt, startProduct } from "../tests/e2e/support/product";
import { removeTempFolders, tempFolder } from "../tests/support/temp-folder";
import { type BenchRow, figure, median } from "./result";

/** Debian's Chromium, as the tests launch it; `CHROMIUM_PATH` points elsewhere. */
const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const RUNS = 3;
/** The page a person opens first: the demo at `/`, its default agent. */
const PAGE = "/";
/** A folder to keep each run's whole report in (`lighthouse-<n>.json`), to read which audit cost what. */
const REPORTS = process.env.PREPICK_LIGHTHOUSE_REPORTS;

/** What one Lighthouse run found. */
interface Audit {
  performance: number;
  bestPractices: number;
  lcpMs: number;
  tbtMs: number;
  cls: number;
  scriptBytes: number;
  /** The Best Practices audits that did not pass, by id, with what they name. */
  failed: string[];
}

/** The ids and items of the Best Practices audits scored below 1 in a run's report. */
function failedBestPractices(lhr: LighthouseResult): string[] {
  const refs = lhr.categories["best-practices"]?.auditRefs ?? [];
  return refs
    .filter(({ id, weight }) => weight > 0 && (lhr.audits[id]?.score ?? 1) < 1)
    .map(({ id }) => {
      const items = (lhr.audits[id]?.details as { items?: { url?: string; description?: string }[] })?.items;
      const named = (items ?? []).map((item) => item.url ?? item.description).filter(Boolean);
      return named.length > 0 ? `${id} (${named.join(", ")})` : id;
    });
}

/** A score or a shift, which have no unit, rounded for the table. */
const unitless = (value: number, digits: number) => String(Number(value.toFixed(digits)));

type LighthouseResult = NonNullable<Awaited<ReturnType<typeof lighthouse>>>["lhr"];

/** One run: a fresh Chromium, Lighthouse's default (mobile, simulated slow 4G and a 4× slower CPU). */
async function audit(url: string, run: number): Promise<Audit> {
  const chrome = await launch({
    chromePath: CHROMIUM,
    chromeFlags: ["--headless=new", "--no-sandbox", "--disable-gpu"],
  });
  try {
    const result = await lighthouse(url, {
      port: chrome.port,
      logLevel: "error",
      output: "json",
      onlyCategories: ["performance", "best-practices"],
    });
    if (!result) throw new Error(`Lighthouse returned no report for ${url}`);
    const { lhr } = result;
    if (REPORTS) writeFileSync(join(REPORTS, `lighthouse-${run + 1}.json`), JSON.stringify(lhr, null, 1));
    if (lhr.runtimeError) throw new Error(`Lighthouse: ${lhr.runtimeError.code} ${lhr.runtimeError.message}`);
    const numeric = (id: string) => {
      const value = lhr.audits[id]?.numericValue;
      if (value === undefined) throw new Error(`Lighthouse's report has no ${id}`);
      return value;
    };
    const resources = (
      lhr.audits["resource-summary"]?.details as {
        items?: { resourceType: string; transferSize: number }[];
      }
    )?.items;
    return {
      performance: lhr.categories.performance?.score ?? Number.NaN,
      bestPractices: lhr.categories["best-practices"]?.score ?? Number.NaN,
      lcpMs: numeric("largest-contentful-paint"),
      tbtMs: numeric("total-blocking-time"),
      cls: numeric("cumulative-layout-shift"),
      scriptBytes:
        resources?.find(({ resourceType }) => resourceType === "script")?.transferSize ?? Number.NaN,
      failed: failedBestPractices(lhr),
    };
  } finally {
    await chrome.kill();
  }
}

/**
 * Builds the demo as `npm start` does, serves it on a free loopback port with its store in a temp
 * folder, and runs Lighthouse's mobile audit three times: each row is the median of the three.
 */
export async function lighthouseRows(): Promise<BenchRow[]> {
  await ensureBuilt();
  const server = await startProduct(tempFolder("prepick-bench-lighthouse-"));
  const audits: Audit[] = [];
  try {
    const url = new URL(PAGE, server.url).href;
    for (let run = 0; run < RUNS; run++) audits.push(await audit(url, run));
  } finally {
    await server.kill();
    removeTempFolders();
  }
  const of = (pick: (each: Audit) => number) => median(audits.map(pick));
  const runs = `median of ${RUNS} runs: ${audits.map((each) => each.performance).join(", ")}`;
  const performance = of((each) => each.performance);
  const bestPractices = of((each) => each.bestPractices);
  const failed = [...new Set(audits.flatMap((each) => each.failed))];
  const page = `the demo page (${PAGE}), Lighthouse mobile`;
  /** A figure with no target of its own, read beside the score. */
  const reported = (id: string, what: string, ours: string): BenchRow => ({
    id,
    metric: `${what}, ${page}, median of ${RUNS}`,
    baseline: "—",
    ours,
    ratio: "—",
    target: "—",
    pass: "reported",
  });
  return [
    {
      id: "lighthouse.performance",
      metric: `Lighthouse Performance score, ${page} (${runs})`,
      baseline: "—",
      ours: unitless(performance, 2),
      ratio: "—",
      target: "≥ 0.9",
      pass: performance >= 0.9,
    },
    reported("lighthouse.lcp", "Largest Contentful Paint", figure(of((each) => each.lcpMs) / 1000, "s", 2)),
    reported(
      "lighthouse.tbt",
      "Total Blocking Time",
      figure(
        of((each) => each.tbtMs),
        "ms",
        0,
      ),
    ),
    reported(
      "lighthouse.cls",
      "Cumulative Layout Shift",
      unitless(
        of((each) => each.cls),
        3,
      ),
    ),
    reported(
      "lighthouse.script-bytes",
      "JavaScript transferred on load",
      figure(of((each) => each.scriptBytes) / 1000, "kB", 1),
    ),
    {
      id: "lighthouse.best-practices",
      metric: `Lighthouse Best Practices score, ${page}, median of ${RUNS}${failed.length > 0 ? `; failed: ${failed.join("; ")}` : ", every audit passed"}`,
      baseline: "—",
      ours: unitless(bestPractices, 2),
      ratio: "—",
      target: "= 1 (no console error, no failed request)",
      pass: bestPractices >= 1,
    },
  ];
}

if (import.meta.url === `file://${process.argv[1]}`) {
  for (const row of await lighthouseRows()) console.log(`${row.id}: ${row.ours} — ${row.metric}`);
}
