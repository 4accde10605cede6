import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

const from = (path: string) => fileURLToPath(new URL(path, import.meta.url));

export default defineConfig({
  resolve: {
    alias: [
      { find: /^@\/lib\/utils$/, replacement: from("./src/lib/utils.ts") },
      { find: /^@\/lib\/prepick\/core$/, replacement: from("./src/core/index.ts") },
      { find: /^@\/lib\/prepick\/core\/(.*)$/, replacement: from("./src/core/$1") },
      { find: /^@\/lib\/prepick\/transport$/, replacement: from("./src/transport/index.ts") },
      { find: /^@\/lib\/prepick\/transport\/(.*)$/, replacement: from("./src/transport/$1") },
      { find: /^@\/hooks\/(.*)$/, replacement: from("./src/hooks/$1") },
      { find: /^@\/components\/ui\/(.*)$/, replacement: from("./src/components/$1") },
    ],
  },
  test: {
    include: ["src/**/*.test.{ts,tsx}", "server/**/*.test.ts", "tests/**/*.test.{ts,tsx}"],
    testTimeout: 20_000,
    hookTimeout: 30_000,
  },
});
