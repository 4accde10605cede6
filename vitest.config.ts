import { fileURLToPath } from "node:url";
import { storybookTest } from "@storybook/addon-vitest/vitest-plugin";
import { playwright } from "@vitest/browser-playwright";
import { configDefaults, defineConfig } from "vitest/config";

const from = (path: string) => fileURLToPath(new URL(path, import.meta.url));

/**
 * The test files that wait on other processes (a server, PostgreSQL, Chromium, npm install, a
 * build): the `processes` project runs them several at a time, since they spend their time waiting,
 * not computing. Every file under tests/ is one: put a test that starts another process there. The
 * few files under server/ that start one are listed. `npm run test:timings` reads this list too.
 */
export const PROCESS_FILES = [
  "tests/**/*.test.{ts,tsx}",
  "server/agents-module.test.ts",
  "server/agents/define-agent.test.ts",
  "server/database/data-dir-lock.test.ts",
  "server/database/database.test.ts",
];

export default defineConfig({
  // The `@/…` aliases and the package's own names come from tsconfig.json's `paths`, the one list.
  resolve: { tsconfigPaths: true },
  test: {
    testTimeout: 20_000,
    hookTimeout: 30_000,
    // A poll waits on a browser, a server or a database under a loaded CI machine, not on a clock:
    // give it as long as a locator wait gets, rather than Vitest's default second.
    expect: { poll: { timeout: 15_000 } },
    // Every file's duration, for `npm run test:timings` (docs/test-timings.md).
    reporters: ["default", ["json", { outputFile: "tests/artifacts/vitest-results.json" }]],
    projects: [
      {
        // Files that wait on other processes (PROCESS_FILES above): three at a time on
        // two cores, first, since the longest files are among them. They share no port (each binds
        // a free one) and no folder (each works in temp folders; the demo is built once, locked).
        extends: true,
        test: {
          name: "processes",
          include: PROCESS_FILES,
          setupFiles: ["./tests/support/pattern-engine.setup.ts", "./tests/support/jsdom-layout.setup.ts"],
          globalSetup: ["./tests/support/pglite-template.global-setup.ts"],
          maxWorkers: 3,
          sequence: { groupOrder: 0 },
        },
      },
      {
        // In this process, computing: one file per core.
        extends: true,
        test: {
          name: "unit",
          include: ["src/**/*.test.{ts,tsx}", "server/**/*.test.ts", "bench/*.test.ts"],
          exclude: [...configDefaults.exclude, ...PROCESS_FILES],
          setupFiles: ["./tests/support/pattern-engine.setup.ts", "./tests/support/jsdom-layout.setup.ts"],
          // Both projects copy the host's initialised PGlite folder (tests/support/pglite-folder.ts)
          // where a test needs a store on disk: it is made, once per host, before any file starts.
          globalSetup: ["./tests/support/pglite-template.global-setup.ts"],
          maxWorkers: 2,
          sequence: { groupOrder: 1 },
        },
      },
      {
        // Every story runs as a test in real Chromium, with its play function and an axe check.
        extends: true,
        plugins: [storybookTest({ configDir: from("./.storybook") })],
        // Pre-bundled up front: discovered mid-run on a cold cache (every CI run), Vite reloads and
        // a second copy of React breaks the stories that were already loading.
        optimizeDeps: {
          include: [
            "react",
            "react-dom",
            "react-dom/client",
            "react/jsx-runtime",
            "react/jsx-dev-runtime",
            "@radix-ui/react-radio-group",
            "@radix-ui/react-checkbox",
            "@radix-ui/react-label",
            "@radix-ui/react-slot",
            "class-variance-authority",
            "clsx",
            "tailwind-merge",
            "re2js",
            "zod",
            "ai",
            "@ai-sdk/react",
            "streamdown",
          ],
        },
        test: {
          name: "storybook",
          sequence: { groupOrder: 2 },
          browser: {
            enabled: true,
            headless: true,
            provider: playwright({
              launchOptions: {
                // Debian's Chromium, or the one CHROMIUM_PATH names, as the other browser tests take it.
                executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
                args: [
                  "--headless",
                  "--no-sandbox",
                  "--disable-gpu",
                  "--disable-background-networking",
                  "--disable-component-update",
                  "--no-first-run",
                ],
              },
            }),
            instances: [{ browser: "chromium" }],
          },
        },
      },
    ],
  },
});
