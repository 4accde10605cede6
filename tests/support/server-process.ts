import { type ChildProcess, spawn } from "node:child_process";
import { fileURLToPath } from "node:url";

/** The repository root: the server's working directory. */
export const REPO_ROOT = fileURLToPath(new URL("../..", import.meta.url));

/** The line the server prints once it accepts connections. */
const READY_LINE = /Prepick listening on (http:\/\/127\.0\.0\.1:(\d+))/;

/** A reference server running as a child process of the test. */
export interface ServerProcess {
  /** `http://127.0.0.1:<port>`. */
  url: string;
  /** The process id. */
  pid: number;
  /** Everything the process wrote to stderr so far, for failure messages. */
  stderr(): string;
  /** Everything the process wrote to stdout so far. */
  stdout(): string;
  /** Resolves with the exit code (or the signal that ended it) once the process is gone. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Sends `signal` (SIGKILL by default) to the process and waits for it to be gone. */
  kill(signal?: NodeJS.Signals): Promise<void>;
}

/** How to start a server. */
export interface StartServerOptions {
  /**
   * The server's settings: `PREPICK_DATA_DIR` or `DATABASE_URL`, crash hooks… Inherited
   * `PREPICK_*` and `DATABASE_URL` variables are dropped; the rest of the environment is kept.
   */
  env: Record<string, string | undefined>;
  /** How long to wait for the ready line. */
  timeoutMs?: number;
}

const running = new Set<ChildProcess>();

// A test that fails, or a worker that exits early, must not leave servers behind.
process.on("exit", () => {
  for (const child of running) killGroup(child, "SIGKILL");
});

function killGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  try {
    // The child leads its own process group, so anything it started goes too.
    process.kill(-child.pid, signal);
  } catch {
    try {
      child.kill(signal);
    } catch {
      // Already gone.
    }
  }
}

/**
 * Starts `server/main.ts` under this Node (through tsx's loader, in one process so that a SIGKILL
 * reaches the server itself) with `PORT=0`, and resolves once it prints its ready line. Fails,
 * quoting the server's output, if it exits first or does not get ready within the timeout.
 */
export async function startServer({ env, timeoutMs = 30_000 }: StartServerOptions): Promise<ServerProcess> {
  // Only what the test names reaches the server: no store, model or crash hook leaks in from the
  // environment the tests run in (a developer's PREPICK_MODEL_BASE_URL, say).
  const childEnv: Record<string, string | undefined> = { ...process.env, DATABASE_URL: undefined };
  for (const key of Object.keys(childEnv)) if (key.startsWith("PREPICK_")) childEnv[key] = undefined;
  for (const [key, value] of Object.entries({ PORT: "0", ...env })) childEnv[key] = value;
  for (const key of Object.keys(childEnv)) if (childEnv[key] === undefined) delete childEnv[key];

  const child = spawn(process.execPath, ["--import", "tsx", "server/main.ts"], {
    cwd: REPO_ROOT,
    env: childEnv,
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  running.add(child);
  // Should this test process die without cleaning up (a SIGKILL, a crashed worker), the watchdog
  // still ends the server's process group.
  const watchdog = spawn(
    "sh",
    ["-c", `while kill -0 ${process.pid} 2>/dev/null; do sleep 1; done; kill -9 -${child.pid} 2>/dev/null`],
    { detached: true, stdio: "ignore" },
  );
  watchdog.unref();
  let stdout = "";
  let stderr = "";
  child.stdout?.setEncoding("utf8");
  child.stderr?.setEncoding("utf8");
  child.stderr?.on("data", (chunk: string) => {
    stderr += chunk;
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    child.once("exit", (code, signal) => {
      running.delete(child);
      watchdog.kill("SIGKILL");
      resolve({ code, signal });
    });
  });
  const describe = () => `\n--- stdout ---\n${stdout.slice(-4_000)}\n--- stderr ---\n${stderr.slice(-4_000)}`;

  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => {
      killGroup(child, "SIGKILL");
      reject(new Error(`The server did not print its ready line within ${timeoutMs} ms${describe()}`));
    }, timeoutMs);
    child.stdout?.on("data", (chunk: string) => {
      stdout += chunk;
      const match = READY_LINE.exec(stdout);
      if (match?.[1]) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    });
    child.once("error", (error) => {
      clearTimeout(timer);
      reject(error);
    });
    void exited.then(({ code, signal }) => {
      clearTimeout(timer);
      reject(
        new Error(`The server exited (code ${code}, signal ${signal}) before it was ready${describe()}`),
      );
    });
  });

  return {
    url,
    pid: child.pid ?? -1,
    stderr: () => stderr,
    stdout: () => stdout,
    exited,
    kill: async (signal = "SIGKILL") => {
      killGroup(child, signal);
      await exited;
    },
  };
}
