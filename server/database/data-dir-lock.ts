import { link, open, readFile, unlink, writeFile } from "node:fs/promises";
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

/** Creates `lockPath` holding this process's pid, atomically and whole; false when it exists. */
async function create(lockPath: string): Promise<boolean> {
  // Written under a name of its own, then linked: the lock never exists empty, and `link` fails
  // when the name is taken, so exactly one of several processes creates it.
  const draft = `${lockPath}.${process.pid}-${crypto.randomUUID()}`;
  await writeFile(draft, `${process.pid}\n`, { flag: "wx" });
  try {
    await link(draft, lockPath);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return false;
    throw error;
  } finally {
    await unlink(draft).catch(() => undefined);
  }
}

/**
 * Removes a lock left by the dead process `pid`, when this process is the one to do it: the one
 * that creates `<lock>.reap-<pid>` first. Only its reaper removes a dead process's lock, so two
 * processes can never both remove a lock and then both take the folder.
 */
async function reap(lockPath: string, pid: number): Promise<void> {
  const token = `${lockPath}.reap-${pid}`;
  try {
    const file = await open(token, "wx");
    await file.close();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return; // Another process reaps it.
    throw error;
  }
  try {
    // Read again holding the token: the lock may already be a live process's new one.
    if ((await holder(lockPath)) === pid) await unlink(lockPath).catch(() => undefined);
  } finally {
    await unlink(token).catch(() => undefined);
  }
}

/**
 * Takes the folder for this process: PGlite is one embedded database, and a second process
 * opening the same files would see a stale copy and overwrite the first one's work. A lock left
 * by a process that died (a crash, a SIGKILL) is taken over; when several processes find it at
 * once, exactly one gets the folder. Resolves to the release function.
 */
export async function lockDataDir(directory: string): Promise<() => Promise<void>> {
  const lockPath = join(directory, LOCK_FILE);
  if (held.has(directory)) throw inUse(directory, lockPath, process.pid);
  for (let attempt = 0; !(await create(lockPath)); attempt++) {
    const pid = await holder(lockPath);
    if (pid !== undefined && pid !== process.pid && isAlive(pid)) throw inUse(directory, lockPath, pid);
    if (attempt >= 200) {
      throw new Error(
        `Could not take the PGlite folder ${directory}: ${lockPath} names no running process, yet stays. Delete ${lockPath} and any ${LOCK_FILE}.reap-* beside it.`,
      );
    }
    // Unreadable (gone since: locks are never written empty) or a dead process's: reap it, unless
    // another process does, and look again shortly.
    if (pid !== undefined) await reap(lockPath, pid);
    await new Promise((resolve) => setTimeout(resolve, 10));
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
