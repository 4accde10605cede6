import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** Temp folders made by {@link tempFolder}; {@link removeTempFolders} deletes them. */
const folders: string[] = [];

/** A fresh empty folder under the system temp dir, removed by {@link removeTempFolders}. */
export function tempFolder(prefix = "prepick-test-"): string {
  const folder = mkdtempSync(join(tmpdir(), prefix));
  folders.push(folder);
  return folder;
}

/** Deletes every folder {@link tempFolder} made. */
export function removeTempFolders(): void {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
}
