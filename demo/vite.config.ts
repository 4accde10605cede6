import { fileURLToPath } from "node:url";
import tailwindcss from "@tailwindcss/vite";
import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";
import { precompress } from "./precompress-plugin";

const from = (path: string) => fileURLToPath(new URL(path, import.meta.url));

/** The demo page `npm start` serves at `/`: built to `dist/demo/` from the registry's own sources. */
export default defineConfig({
  root: from("."),
  base: "/",
  plugins: [react(), tailwindcss(), precompress()],
  // The same aliases as an installed app (tsconfig.json's `paths`), onto the sources the registry ships.
  resolve: { tsconfigPaths: true },
  build: {
    outDir: from("../dist/demo"),
    emptyOutDir: true,
    // One page that bundles React, the AI SDK and zod: a single chunk of this size is expected.
    chunkSizeWarningLimit: 1024,
  },
  // `vite --config demo/vite.config.ts` serves the page with hot reload against a running server.
  server: { proxy: { "/agent": `http://127.0.0.1:${process.env.PORT ?? "3000"}` } },
});
