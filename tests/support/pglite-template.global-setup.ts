import { ensurePgliteTemplate } from "./pglite-folder";

/**
 * Vitest's global setup for the projects whose tests open PGlite in a folder: the host's
 * initialised PGlite folder is made (once per host and PGlite version) before any file starts, so
 * the 25 s an on-disk initdb takes on a loaded machine is spent once, outside every test's time.
 */
export default async function setup(): Promise<void> {
  await ensurePgliteTemplate();
}
