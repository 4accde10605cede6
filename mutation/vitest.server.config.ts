// The tests Stryker runs against mutants of the settle and journal code: the focused in-process
// tests of exactly that code, each file on one PGlite store in memory opened once. They run in
// `npm test` too (the unit project). A test of a server, in this process or another, drives the
// same code through far more of it and starts far slower, so none is listed.
import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: { tsconfigPaths: true },
  test: {
    root: fileURLToPath(new URL("..", import.meta.url)),
    include: [
      "server/loop/settle-call.test.ts",
      "server/loop/settlement.test.ts",
      "server/loop/journal.test.ts",
      "server/store/settlements.test.ts",
    ],
    setupFiles: ["./tests/support/pattern-engine.setup.ts"],
    // Each test takes milliseconds: a mutant that stalls one (a wait that never ends, a retry
    // that never stops) fails it in seconds, not after a long timeout. Opening the store takes
    // seconds of CPU, more on a loaded machine.
    testTimeout: 5_000,
    hookTimeout: 60_000,
  },
});
