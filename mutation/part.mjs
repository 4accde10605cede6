// What both mutation runs share: Stryker's Vitest runner, one part's files, tests and target.
// @ts-check

/**
 * The Stryker options of one part of `npm run mutation`.
 * @param {{ name: string, mutate: string[], concurrency: number, timeoutMS: number, target: number }} part
 * @returns {import("@stryker-mutator/api/core").PartialStrykerOptions}
 */
export function mutationPart({ name, mutate, concurrency, timeoutMS, target }) {
  return {
    testRunner: "vitest",
    vitest: { configFile: `mutation/vitest.${name}.config.ts`, related: false },
    mutate,
    // The project's TypeScript (7) has no JavaScript API for Stryker to rewrite tsconfig.json
    // with; the sandbox needs no rewrite (no "extends" or references), so it reads none.
    tsconfigFile: "mutation/no-tsconfig-rewrite.json",
    coverageAnalysis: "perTest",
    ignoreStatic: true,
    // The machine is shared: few test runners at a time.
    concurrency,
    timeoutMS,
    // The first run of every listed file, on a loaded machine, takes minutes.
    dryRunTimeoutMinutes: 30,
    reporters: ["clear-text", "progress", "json"],
    jsonReporter: { fileName: `reports/mutation/${name}.json` },
    tempDirName: `.stryker-tmp/${name}`,
    cleanTempDir: "always",
    // Later runs test again only the mutants whose code or tests changed.
    incremental: true,
    incrementalFile: `reports/mutation/${name}-incremental.json`,
    thresholds: { high: target, low: target, break: target },
  };
}
