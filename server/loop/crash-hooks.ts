/**
 * Fault injection for crash tests: `before(name)` runs right before checkpoint `name` is recorded
 * (after its work ran), `after(name)` right after. A server without hooks calls nothing.
 */
export interface CrashHooks {
  /** Called right before `name` is recorded. */
  before(name: string): void;
  /** Called right after `name` is recorded. */
  after(name: string): void;
}

/** Hooks that do nothing: what a server runs with unless a test asks for a crash. */
export const NO_CRASH_HOOKS: CrashHooks = { before: () => undefined, after: () => undefined };

function matcher(hook: string | undefined): ((name: string) => boolean) | undefined {
  if (hook === undefined || hook.trim() === "") return undefined;
  return hook.endsWith("*") ? (name) => name.startsWith(hook.slice(0, -1)) : (name) => name === hook;
}

/**
 * The crash hooks an environment asks for, read once: `PREPICK_CRASH_AT` names a checkpoint
 * after which the process kills itself (SIGKILL), `PREPICK_CRASH_BEFORE` one before which it
 * does. A name ending in `*` matches every checkpoint it begins, for a name with an id the run
 * has not minted yet (a model's tool call). Neither set: {@link NO_CRASH_HOOKS}.
 */
export function crashHooksFromEnv(env: NodeJS.ProcessEnv): CrashHooks {
  const at = matcher(env.PREPICK_CRASH_AT);
  const before = matcher(env.PREPICK_CRASH_BEFORE);
  if (!at && !before) return NO_CRASH_HOOKS;
  const kill = () => process.kill(process.pid, "SIGKILL");
  return {
    before: (name) => {
      if (before?.(name)) kill();
    },
    after: (name) => {
      if (at?.(name)) kill();
    },
  };
}
