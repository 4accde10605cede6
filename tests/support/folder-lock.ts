import { existsSync, mkdirSync, rmSync, statSync } from "node:fs";
import { dirname } from "node:path";
import { waitFor } from "./wait-for";

/** How long a holder may keep a lock, and a waiter wait for it. */
export interface FolderLockOptions {
  /** A lock older than this was left by a run killed while holding it, and is taken over. */
  staleMs: number;
  /** How long to wait for another holder before failing. */
  timeoutMs: number;
}

/**
 * Runs `work` holding a cross-process lock: the folder `lockDir`, made with an atomic `mkdir`.
 * Test files run in parallel workers, and what is built once per run or per host (the demo, a
 * template) must be built by one of them while the others wait.
 */
export async function withFolderLock<T>(
  lockDir: string,
  { staleMs, timeoutMs }: FolderLockOptions,
  work: () => Promise<T>,
): Promise<T> {
  mkdirSync(dirname(lockDir), { recursive: true });
  await waitFor(
    `the lock ${lockDir} another test file holds`,
    () => {
      if (existsSync(lockDir) && Date.now() - statSync(lockDir).mtimeMs > staleMs) {
        rmSync(lockDir, { recursive: true, force: true });
      }
      try {
        mkdirSync(lockDir);
        return true;
      } catch {
        return undefined;
      }
    },
    { timeoutMs, intervalMs: 200 },
  );
  try {
    return await work();
  } finally {
    rmSync(lockDir, { recursive: true, force: true });
  }
}
