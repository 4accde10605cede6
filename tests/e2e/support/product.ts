import { existsSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { runCommand } from "../../install/fresh-app";
import { withFolderLock } from "../../support/folder-lock";
import { seededPgliteFolder } from "../../support/pglite-folder";
import { REPO_ROOT, type ServerProcess, startServer } from "../../support/server-process";

/** The built demo page `npm start` serves at `/`. */
export const DEMO_DIR = join(REPO_ROOT, "dist", "demo");
/** The registry JSON `npm start` serves at `/r/`. */
export const REGISTRY_DIR = join(REPO_ROOT, "public", "r");

const LOCK_DIR = join(REPO_ROOT, "dist", ".e2e-build.lock");

/** The newest modification time of any file under `paths` (folders are walked), in ms. */
function newestChange(paths: readonly string[]): number {
  let newest = 0;
  for (const path of paths.map((each) => join(REPO_ROOT, each))) {
    if (!existsSync(path)) continue;
    const files = statSync(path).isDirectory()
      ? readdirSync(path, { recursive: true, withFileTypes: true })
          .filter((entry) => entry.isFile())
          .map((entry) => join(entry.parentPath, entry.name))
      : [path];
    for (const file of files) newest = Math.max(newest, statSync(file).mtimeMs);
  }
  return newest;
}

/** Whether `output` is missing or older than a file it is built from. */
function stale(output: string, sources: readonly string[]): boolean {
  return !existsSync(output) || statSync(output).mtimeMs < newestChange(sources);
}

const DEMO_OUTPUT = join(DEMO_DIR, "index.html");
// The demo page renders the registry's chat block, so a change to the block is a change to the page.
const DEMO_SOURCES = ["src", "registry", "demo", "package.json"];
const REGISTRY_OUTPUT = join(REGISTRY_DIR, "agent-chat.json");
const REGISTRY_SOURCES = ["src", "registry", "registry.json"];

/**
 * Builds what `npm start`'s `prestart` builds (the demo page and the registry JSON) when it is
 * missing or older than its sources, so a suite run after `npm start` uses the build it already
 * has, and never tests a page built before the code it is meant to prove.
 */
export async function ensureBuilt(): Promise<void> {
  if (!stale(DEMO_OUTPUT, DEMO_SOURCES) && !stale(REGISTRY_OUTPUT, REGISTRY_SOURCES)) return;
  await withFolderLock(LOCK_DIR, { staleMs: 10 * 60_000, timeoutMs: 240_000 }, async () => {
    if (stale(DEMO_OUTPUT, DEMO_SOURCES)) {
      await runCommand(
        process.execPath,
        [
          join(REPO_ROOT, "node_modules", "vite", "bin", "vite.js"),
          "build",
          "--config",
          "demo/vite.config.ts",
        ],
        // The page `npm start` builds: production React, whatever NODE_ENV the test runner set
        // (Vitest's "test" builds React's development bundle, a third larger and slower).
        { cwd: REPO_ROOT, timeoutMs: 180_000, env: { NODE_ENV: "production" } },
      );
    }
    if (stale(REGISTRY_OUTPUT, REGISTRY_SOURCES)) {
      await runCommand(
        process.execPath,
        [
          join(REPO_ROOT, "node_modules", "shadcn", "dist", "index.js"),
          "build",
          "registry.json",
          "--output",
          "public/r",
        ],
        { cwd: REPO_ROOT, timeoutMs: 120_000 },
      );
    }
  });
}

/**
 * Starts the product as `npm start` does (the `start` script's `tsx server/main.ts`) with its
 * embedded store in `dataDir`, on a free port, or on `port` to come back where a page left it;
 * `env` adds settings (`PREPICK_CORS_ORIGINS`). An empty `dataDir` gets the host's initialised
 * PGlite folder first (`seededPgliteFolder`); one a previous start left is opened as it is.
 */
export async function startProduct(
  dataDir: string,
  port = 0,
  env: Record<string, string> = {},
): Promise<ServerProcess> {
  await seededPgliteFolder(dataDir);
  return startServer({ env: { PORT: String(port), PREPICK_DATA_DIR: dataDir, ...env }, timeoutMs: 60_000 });
}
