/**
 * Fault injection for crash tests: when `PREPICK_CRASH_AT` names a checkpoint, the process kills
 * itself right after recording it; `PREPICK_CRASH_BEFORE` kills it right before recording it,
 * after the checkpoint's work ran. A name ending in `*` matches every checkpoint it begins, for a
 * name with an id the run has not minted yet (a model's tool call). Read on every call, so a test
 * can set them per child process.
 */
export function crashBefore(name: string): void {
  if (armed(process.env.PREPICK_CRASH_BEFORE, name)) process.kill(process.pid, "SIGKILL");
}

/** See {@link crashBefore}: kills the process right after `name` is recorded. */
export function crashAfter(name: string): void {
  if (armed(process.env.PREPICK_CRASH_AT, name)) process.kill(process.pid, "SIGKILL");
}

function armed(hook: string | undefined, name: string): boolean {
  if (hook === undefined || hook === "") return false;
  return hook.endsWith("*") ? name.startsWith(hook.slice(0, -1)) : hook === name;
}
