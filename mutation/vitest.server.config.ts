// The tests Stryker runs against mutants of the settle and journal code: those that drive it in
// this process (PGlite in memory), where a mutant is switched on. A test of a child process runs
// the code unmutated, so none is listed.
import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: { tsconfigPaths: true },
  test: {
    root: fileURLToPath(new URL("..", import.meta.url)),
    include: [
      "server/store/settlements.test.ts",
      "server/settle-once.test.ts",
      "server/intake-flow.test.ts",
      "server/ask-and-tools.test.ts",
      "server/shared-store.test.ts",
      "server/inbox.test.ts",
    ],
    setupFiles: ["./tests/support/pattern-engine.setup.ts"],
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
