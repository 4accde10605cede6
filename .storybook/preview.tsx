/// <reference types="vite/client" />
import type { Decorator, Preview } from "@storybook/react-vite";
import { useEffect } from "react";
import { sb } from "storybook/test";
import "../src/styles/globals.css";

// The lazily loaded pattern engine, spied on and left working: a story can hold its arrival back
// to show a form waiting for it.
sb.mock(import("../src/core/pattern.ts"), { spy: true });

/** Puts `class="dark"` on the document root, where shadcn's `dark` variant looks for it. */
const withTheme: Decorator = (Story, context) => {
  const dark = context.globals.theme === "dark";
  useEffect(() => {
    document.documentElement.classList.toggle("dark", dark);
    document.documentElement.style.colorScheme = dark ? "dark" : "light";
  }, [dark]);
  return (
    <div className="bg-background text-foreground min-h-full p-4">
      <Story />
    </div>
  );
};

const preview: Preview = {
  decorators: [withTheme],
  globalTypes: {
    theme: {
      description: "Light or dark theme",
      toolbar: {
        title: "Theme",
        icon: "mirror",
        items: [
          { value: "light", title: "Light", icon: "sun" },
          { value: "dark", title: "Dark", icon: "moon" },
        ],
        dynamicTitle: true,
      },
    },
  },
  initialGlobals: { theme: "light" },
  parameters: {
    layout: "fullscreen",
    controls: { matchers: { color: /(background|color)$/i, date: /Date$/i } },
    // A story with an accessibility violation fails its test.
    // axe leaves target-size (WCAG 2.2 AA, 2.5.8) off by default; the stories hold to it too.
    a11y: { test: "error", options: { rules: { "target-size": { enabled: true } } } },
  },
};

export default preview;
