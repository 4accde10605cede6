// `npm run mutation:core`: Stryker over src/core, against the core's own tests.
// @ts-check
/** @type {import("@stryker-mutator/api/core").PartialStrykerOptions} */
export default {
  testRunner: "vitest",
  vitest: { configFile: "mutation/vitest.core.config.ts", related: false },
  mutate: [
    "src/core/**/*.ts",
    "!src/core/**/*.test.ts",
    "!src/core/**/*.fixture.ts",
    // Example data and the barrel: nothing to decide.
    "!src/core/spec-examples.ts",
    "!src/core/index.ts",
  ],
  // The project's TypeScript (7) has no JavaScript API for Stryker to rewrite tsconfig.json with;
  // the sandbox needs no rewrite (no "extends" or references), so it reads none.
  tsconfigFile: "mutation/no-tsconfig-rewrite.json",
  coverageAnalysis: "perTest",
  ignoreStatic: true,
  // The machine is shared: one test runner at a time.
  concurrency: 1,
  timeoutMS: 20_000,
  reporters: ["clear-text", "progress", "json"],
  jsonReporter: { fileName: "reports/mutation/core.json" },
  tempDirName: ".stryker-tmp/core",
  cleanTempDir: "always",
  // Later runs test again only the mutants whose code or tests changed.
  incremental: true,
  incrementalFile: "reports/mutation/core-incremental.json",
  thresholds: { high: 90, low: 90, break: 90 },
};
