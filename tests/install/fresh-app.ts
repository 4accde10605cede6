import { spawn } from "node:child_process";
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ROOT } from "./registry-catalogue";

/** What a finished command printed. */
export interface CommandResult {
  /** Standard output and standard error, interleaved. */
  output: string;
}

/** Options for {@link runCommand}. */
export interface RunOptions {
  /** Working directory. */
  cwd: string;
  /** Extra environment variables, over a copy of this process's environment without `npm_*`. */
  env?: Record<string, string>;
  /** The command is killed, and the promise rejected, after this long. */
  timeoutMs: number;
  /** What the command reads on its standard input (answers to its prompts); none when left out. */
  input?: string;
}

/**
 * This process's environment without the `npm_*` variables `npm run` sets, so a nested npm reads
 * its own project's configuration, not this repository's.
 */
function cleanEnvironment(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (value !== undefined && !key.toLowerCase().startsWith("npm_")) env[key] = value;
  }
  return env;
}

/** Runs a command to completion; rejects with its output when it fails or runs past its time. */
export function runCommand(command: string, args: string[], options: RunOptions): Promise<CommandResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd: options.cwd,
      env: { ...cleanEnvironment(), ...options.env },
      stdio: [options.input === undefined ? "ignore" : "pipe", "pipe", "pipe"],
      // Its own process group, so a timeout ends the command and everything it started.
      detached: true,
    });
    child.stdin?.end(options.input);
    let output = "";
    child.stdout?.on("data", (chunk) => {
      output += chunk;
    });
    child.stderr?.on("data", (chunk) => {
      output += chunk;
    });
    const timer = setTimeout(() => {
      if (child.pid !== undefined) process.kill(-child.pid, "SIGKILL");
    }, options.timeoutMs);
    child.on("error", (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      const shown = `${command} ${args.join(" ")}`;
      if (code === 0) resolve({ output });
      else if (signal)
        reject(new Error(`${shown} was stopped (${signal}) after ${options.timeoutMs} ms:\n${output}`));
      else reject(new Error(`${shown} exited with ${code}:\n${output}`));
    });
  });
}

/** npm settings for every install a test runs: use the local cache first, stay quiet. */
export const NPM_ENV = {
  npm_config_prefer_offline: "true",
  npm_config_audit: "false",
  npm_config_fund: "false",
  npm_config_update_notifier: "false",
  npm_config_loglevel: "error",
};

/** Writes `value` to `path` as JSON, the way npm and create-* tools format it. */
function writeJson(path: string, value: unknown): void {
  writeFileSync(path, `${JSON.stringify(value, null, 2)}\n`);
}

/** The exact version this repository uses of each package, so installs come from npm's cache. */
function versionsOf(names: string[]): Record<string, string> {
  const manifest = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8"));
  const all: Record<string, string> = { ...manifest.dependencies, ...manifest.devDependencies };
  return Object.fromEntries(
    names.map((name) => {
      const version = all[name];
      if (!version) throw new Error(`package.json of the repository does not list ${name}`);
      return [name, version];
    }),
  );
}

/**
 * Writes a fresh Vite + React 19 + Tailwind 4 app into `dir`, as `npm create vite` (react-ts) and
 * `shadcn init` leave it, and installs its packages.
 */
export async function createFreshApp(dir: string): Promise<void> {
  mkdirSync(join(dir, "src"), { recursive: true });
  const json = (path: string, value: unknown) => writeJson(join(dir, path), value);
  json("package.json", {
    name: "fresh-app",
    private: true,
    version: "0.0.0",
    type: "module",
    dependencies: versionsOf(["react", "react-dom"]),
    devDependencies: versionsOf([
      "@tailwindcss/vite",
      "@types/node",
      "@types/react",
      "@types/react-dom",
      "@vitejs/plugin-react",
      "tailwindcss",
      "typescript",
      "vite",
    ]),
  });
  // The react-ts template's compiler options, with the alias `shadcn init` adds.
  json("tsconfig.json", {
    compilerOptions: {
      target: "ES2022",
      useDefineForClassFields: true,
      lib: ["ES2023", "DOM", "DOM.Iterable"],
      module: "ESNext",
      types: ["vite/client", "node"],
      skipLibCheck: true,
      moduleResolution: "bundler",
      allowImportingTsExtensions: true,
      verbatimModuleSyntax: true,
      moduleDetection: "force",
      noEmit: true,
      jsx: "react-jsx",
      strict: true,
      noUnusedLocals: true,
      noUnusedParameters: true,
      erasableSyntaxOnly: true,
      noFallthroughCasesInSwitch: true,
      noUncheckedSideEffectImports: true,
      paths: { "@/*": ["./src/*"] },
    },
    include: ["src", "vite.config.ts"],
  });
  json("components.json", {
    $schema: "https://ui.shadcn.com/schema.json",
    style: "new-york",
    rsc: false,
    tsx: true,
    tailwind: { config: "", css: "src/index.css", baseColor: "neutral", cssVariables: true, prefix: "" },
    iconLibrary: "lucide",
    aliases: {
      components: "@/components",
      utils: "@/lib/utils",
      ui: "@/components/ui",
      lib: "@/lib",
      hooks: "@/hooks",
    },
  });
  writeFileSync(
    join(dir, "vite.config.ts"),
    [
      'import { fileURLToPath } from "node:url";',
      'import tailwindcss from "@tailwindcss/vite";',
      'import react from "@vitejs/plugin-react";',
      'import { defineConfig } from "vite";',
      "",
      "export default defineConfig({",
      "  plugins: [react(), tailwindcss()],",
      '  resolve: { alias: { "@": fileURLToPath(new URL("./src", import.meta.url)) } },',
      "});",
      "",
    ].join("\n"),
  );
  writeFileSync(
    join(dir, "index.html"),
    '<!doctype html>\n<html lang="en">\n  <head>\n    <meta charset="UTF-8" />\n    <title>Fresh app</title>\n  </head>\n  <body>\n    <div id="root"></div>\n    <script type="module" src="/src/main.tsx"></script>\n  </body>\n</html>\n',
  );
  // The project's stylesheet is shadcn's Tailwind 4 theme exactly as `shadcn init` writes it.
  copyFileSync(join(ROOT, "src", "styles", "globals.css"), join(dir, "src", "index.css"));
  await runCommand("npm", ["install"], { cwd: dir, env: NPM_ENV, timeoutMs: 180_000 });
}

/** Writes `src/main.tsx` rendering `app` (the source of a module exporting `App`) into `#root`. */
export function writeEntry(dir: string, app: string): void {
  writeFileSync(join(dir, "src", "App.tsx"), app);
  writeFileSync(
    join(dir, "src", "main.tsx"),
    [
      'import { StrictMode } from "react";',
      'import { createRoot } from "react-dom/client";',
      'import { App } from "./App";',
      'import "./index.css";',
      "",
      'const root = document.getElementById("root");',
      'if (!root) throw new Error("index.html has no #root element");',
      "createRoot(root).render(",
      "  <StrictMode>",
      "    <App />",
      "  </StrictMode>,",
      ");",
      "",
    ].join("\n"),
  );
}

/**
 * Writes a fresh Next.js 16 App Router app into `dir`, as `create-next-app` (TypeScript, Tailwind 4,
 * no `src/`) and `shadcn init` (`components.json` with `rsc: true`) leave it, with `nextConfig` as
 * its `next.config.ts`, and installs its packages. `app/` holds only the root layout.
 */
export async function createFreshNextApp(dir: string, nextConfig: string): Promise<void> {
  mkdirSync(join(dir, "app"), { recursive: true });
  const json = (path: string, value: unknown) => writeJson(join(dir, path), value);
  json("package.json", {
    name: "fresh-next-app",
    private: true,
    version: "0.1.0",
    dependencies: versionsOf(["next", "react", "react-dom"]),
    devDependencies: versionsOf([
      "@tailwindcss/postcss",
      "@types/node",
      "@types/react",
      "@types/react-dom",
      "tailwindcss",
      "typescript",
    ]),
  });
  // create-next-app's compiler options.
  json("tsconfig.json", {
    compilerOptions: {
      target: "ES2017",
      lib: ["dom", "dom.iterable", "esnext"],
      allowJs: true,
      skipLibCheck: true,
      strict: true,
      noEmit: true,
      esModuleInterop: true,
      module: "esnext",
      moduleResolution: "bundler",
      resolveJsonModule: true,
      isolatedModules: true,
      jsx: "react-jsx",
      incremental: true,
      plugins: [{ name: "next" }],
      paths: { "@/*": ["./*"] },
    },
    include: ["next-env.d.ts", "**/*.ts", "**/*.tsx", ".next/types/**/*.ts", ".next/dev/types/**/*.ts"],
    exclude: ["node_modules"],
  });
  json("components.json", {
    $schema: "https://ui.shadcn.com/schema.json",
    style: "new-york",
    rsc: true,
    tsx: true,
    tailwind: { config: "", css: "app/globals.css", baseColor: "neutral", cssVariables: true, prefix: "" },
    iconLibrary: "lucide",
    aliases: {
      components: "@/components",
      utils: "@/lib/utils",
      ui: "@/components/ui",
      lib: "@/lib",
      hooks: "@/hooks",
    },
  });
  writeFileSync(
    join(dir, "postcss.config.mjs"),
    'export default { plugins: { "@tailwindcss/postcss": {} } };\n',
  );
  writeFileSync(join(dir, "next.config.ts"), nextConfig);
  writeFileSync(
    join(dir, "app", "layout.tsx"),
    [
      'import type { ReactNode } from "react";',
      'import "./globals.css";',
      "",
      "export default function RootLayout({ children }: Readonly<{ children: ReactNode }>) {",
      "  return (",
      '    <html lang="en">',
      "      <body>{children}</body>",
      "    </html>",
      "  );",
      "}",
      "",
    ].join("\n"),
  );
  copyFileSync(join(ROOT, "src", "styles", "globals.css"), join(dir, "app", "globals.css"));
  await runCommand("npm", ["install"], { cwd: dir, env: NPM_ENV, timeoutMs: 240_000 });
}
