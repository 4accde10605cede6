import { fileURLToPath } from "node:url";
import type { StorybookConfig } from "@storybook/react-vite";
import tailwindcss from "@tailwindcss/vite";
import { mergeConfig } from "vite";

const from = (path: string) => fileURLToPath(new URL(path, import.meta.url));

/** The same `@/…` aliases as `vitest.config.ts`, so stories import what an installed app imports. */
const alias = [
  { find: /^@\/lib\/utils$/, replacement: from("../src/lib/utils.ts") },
  { find: /^@\/lib\/prepick\/core$/, replacement: from("../src/core/index.ts") },
  { find: /^@\/lib\/prepick\/core\/(.*)$/, replacement: from("../src/core/$1") },
  { find: /^@\/lib\/prepick\/transport$/, replacement: from("../src/transport/index.ts") },
  { find: /^@\/lib\/prepick\/transport\/(.*)$/, replacement: from("../src/transport/$1") },
  { find: /^@\/hooks\/(.*)$/, replacement: from("../src/hooks/$1") },
  { find: /^@\/components\/ui\/(.*)$/, replacement: from("../src/components/$1") },
];

const config: StorybookConfig = {
  stories: ["../src/**/*.stories.tsx", "../registry/**/*.stories.tsx"],
  addons: ["@storybook/addon-a11y", "@storybook/addon-vitest"],
  framework: { name: "@storybook/react-vite", options: {} },
  // No network: the product is built and tested offline.
  core: { disableTelemetry: true, disableWhatsNewNotifications: true },
  viteFinal: (viteConfig) => mergeConfig(viteConfig, { plugins: [tailwindcss()], resolve: { alias } }),
};

export default config;
