// `npm run mutation:server`: Stryker over the settle and journal code, against the tests that
// drive it in this process.
// @ts-check
/** @type {import("@stryker-mutator/api/core").PartialStrykerOptions} */
export default {
  testRunner: "vitest",
  vitest: { configFile: "mutation/vitest.server.config.ts", related: false },
  mutate: [
    "server/loop/settle-call.ts",
    "server/loop/settlement.ts",
    "server/loop/journal.ts",
    "server/store/settlements.ts",
  ],
  // The project's TypeScript (7) has no JavaScript API for Stryker to rewrite tsconfig.json with;
  // the sandbox needs no rewrite (no "extends" or references), so it reads none.
  tsconfigFile: "mutation/no-tsconfig-rewrite.json",
  coverageAnalysis: "perTest",
  ignoreStatic: true,
  concurrency: 1,
  timeoutMS: 30_000,
  reporters: ["clear-text", "progress", "json"],
  jsonReporter: { fileName: "reports/mutation/server.json" },
  tempDirName: ".stryker-tmp/server",
  cleanTempDir: "always",
  // Later runs test again only the mutants whose code or tests changed.
  incremental: true,
  incrementalFile: "reports/mutation/server-incremental.json",
  thresholds: { high: 80, low: 80, break: 80 },
};
