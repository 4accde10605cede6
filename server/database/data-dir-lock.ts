import { open, readFile, unlink } from "node:fs/promises";
import { join } from "node:path";

/** The file in a PGlite folder naming the process that has it open. */
export const LOCK_FILE = "prepick.lock";

/** Folders this process holds, so a second open from the same process is refused too. */
const held = new Set<string>();

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

async function holder(lockPath: string): Promise<number | undefined> {
  const text = await readFile(lockPath, "utf8").catch(() => "");
  const pid = Number.parseInt(text, 10);
  return Number.isInteger(pid) && pid > 0 ? pid : undefined;
}

function inUse(directory: string, lockPath: string, pid: number): Error {
  return new Error(
    `The PGlite folder ${directory} is already open in process ${pid}${pid === process.pid ? " (this one)" : ""}. ` +
      "PGlite allows one process per folder: stop the other server, point PREPICK_DATA_DIR elsewhere, or share " +
      `a PostgreSQL server through DATABASE_URL. If no such process runs, delete ${lockPath}.`,
  );
}

/**
 * Takes the folder for this process: PGlite is one embedded database, and a second process
 * opening the same files would see a stale copy and overwrite the first one's work. A lock left
 * by a process that died (a crash, a SIGKILL) is taken over. Resolves to the release function.
 */
export async function lockDataDir(directory: string): Promise<() => Promise<void>> {
  const lockPath = join(directory, LOCK_FILE);
  if (held.has(directory)) throw inUse(directory, lockPath, process.pid);
  for (let attempt = 0; ; attempt++) {
    try {
      const file = await open(lockPath, "wx");
      await file.writeFile(`${process.pid}\n`);
      await file.close();
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST" || attempt >= 2) throw error;
      const pid = await holder(lockPath);
      if (pid !== undefined && pid !== process.pid && isAlive(pid)) throw inUse(directory, lockPath, pid);
      // Stale: its process is gone. Remove it and race any other opener for the fresh lock.
      await unlink(lockPath).catch(() => undefined);
    }
  }
  held.add(directory);
  let released = false;
  return async () => {
    if (released) return;
    released = true;
    held.delete(directory);
    if ((await holder(lockPath)) === process.pid) await unlink(lockPath).catch(() => undefined);
  };
}
