// The tests Stryker runs against mutants of src/core: the core's own, in this process, no DOM.
import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: { tsconfigPaths: true },
  test: {
    root: fileURLToPath(new URL("..", import.meta.url)),
    include: ["src/core/**/*.test.ts"],
    setupFiles: ["./tests/support/pattern-engine.setup.ts"],
    testTimeout: 60_000,
  },
});
