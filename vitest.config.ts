import { fileURLToPath } from "node:url";
import { storybookTest } from "@storybook/addon-vitest/vitest-plugin";
import { playwright } from "@vitest/browser-playwright";
import { defineConfig } from "vitest/config";

const from = (path: string) => fileURLToPath(new URL(path, import.meta.url));

export default defineConfig({
  // The `@/…` aliases and the package's own names come from tsconfig.json's `paths`, the one list.
  resolve: { tsconfigPaths: true },
  test: {
    testTimeout: 20_000,
    hookTimeout: 30_000,
    // A poll waits on a browser, a server or a database under a loaded CI machine, not on a clock:
    // give it as long as a locator wait gets, rather than Vitest's default second.
    expect: { poll: { timeout: 15_000 } },
    projects: [
      {
        extends: true,
        test: {
          name: "unit",
          include: [
            "src/**/*.test.{ts,tsx}",
            "server/**/*.test.ts",
            "tests/**/*.test.{ts,tsx}",
            "bench/*.test.ts",
          ],
          setupFiles: ["./tests/support/pattern-engine.setup.ts"],
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
          browser: {
            enabled: true,
            headless: true,
            provider: playwright({
              launchOptions: {
                executablePath: "/usr/bin/chromium",
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
