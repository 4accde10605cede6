import type { StorybookConfig } from "@storybook/react-vite";
import tailwindcss from "@tailwindcss/vite";
import { mergeConfig } from "vite";

const config: StorybookConfig = {
  stories: ["../src/**/*.stories.tsx", "../registry/**/*.stories.tsx"],
  addons: ["@storybook/addon-a11y", "@storybook/addon-vitest"],
  framework: { name: "@storybook/react-vite", options: {} },
  // No network: the product is built and tested offline.
  core: { disableTelemetry: true, disableWhatsNewNotifications: true },
  // Stories import what an installed app imports (`@/…`), resolved through tsconfig.json's `paths`.
  viteFinal: (viteConfig) =>
    mergeConfig(viteConfig, { plugins: [tailwindcss()], resolve: { tsconfigPaths: true } }),
};

export default config;
