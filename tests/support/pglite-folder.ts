import { cpSync, existsSync, readdirSync, readFileSync, renameSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openDatabase } from "../../server/database/open-database";
import { withFolderLock } from "./folder-lock";
import { REPO_ROOT } from "./server-process";

/**
 * How long making the host's template may take: PGlite's initdb on disk, the WASM compiled first,
 * took 26–30 s on a loaded 2-core machine, where opening the folder once it exists took 3–4 s and
 * copying it 1.3 s. Vitest's global setup makes it before any test file starts
 * (`pglite-template.global-setup.ts`), so no test's or hook's time pays for it.
 */
const TEMPLATE_MS = 180_000;

const version: string = JSON.parse(
  readFileSync(join(REPO_ROOT, "node_modules", "@electric-sql", "pglite", "package.json"), "utf8"),
).version;

/** The host's initialised PGlite folder, one per PGlite version, kept across runs. */
const TEMPLATE = join(tmpdir(), `prepick-pglite-${version}`);

/** Makes {@link TEMPLATE} once per host: the folder the product's own open leaves, closed. */
export async function ensurePgliteTemplate(): Promise<void> {
  if (existsSync(TEMPLATE)) return;
  await withFolderLock(`${TEMPLATE}.lock`, { staleMs: 10 * 60_000, timeoutMs: TEMPLATE_MS }, async () => {
    if (existsSync(TEMPLATE)) return;
    const building = `${TEMPLATE}.building`;
    rmSync(building, { recursive: true, force: true });
    const db = await openDatabase({ dataDir: building });
    await db.close();
    // Whole or not at all: a run killed mid-build leaves no half a template.
    renameSync(building, TEMPLATE);
  });
}

/**
 * Makes `folder` hold a PGlite store and returns it: a missing or empty folder gets a copy of the
 * host's template, a store initialised but holding no table (what a first open of an empty folder
 * writes, made once instead of by every test); a folder that holds a store already (a restart on
 * it) is left as it is. The server's own migrations still run on the copy, as on any first start.
 * A test of a first start itself (PGlite's initdb in an empty folder) leaves its folder empty.
 */
export async function seededPgliteFolder(folder: string): Promise<string> {
  if (existsSync(folder) && readdirSync(folder).length > 0) return folder;
  await ensurePgliteTemplate();
  cpSync(TEMPLATE, folder, { recursive: true });
  return folder;
}
