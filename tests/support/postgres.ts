import { type ChildProcess, execFile, execFileSync, spawn } from "node:child_process";
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import pg from "pg";

const run = promisify(execFile);

/** A throwaway PostgreSQL cluster on loopback; `stop()` shuts it down and deletes its files. */
export interface PostgresCluster {
  /** `postgres://postgres@127.0.0.1:<port>/<database>`, trusted, no password. */
  url: string;
  /** The cluster's temp folder (data, socket and server log). */
  directory: string;
  /** Connection string for another database on the same cluster. */
  urlFor(database: string): string;
  /**
   * Creates another database on the cluster and returns its URL: empty, or a copy of the database
   * `template` names (which nothing may be connected to meanwhile).
   */
  createDatabase(name: string, template?: string): Promise<string>;
  /**
   * Stops the server as a crash or an operator would (`pg_ctl stop -m fast`: connections are cut
   * at once), keeping its files, port and databases; {@link PostgresCluster.resume} starts it again.
   */
  suspend(): Promise<void>;
  /** Starts a suspended server again on the same port, with the same settings and databases. */
  resume(): Promise<void>;
  /** Stops the server at once and removes its folder; safe to call twice. */
  stop(): Promise<void>;
}

const POSTGRES_ROOT = "/usr/lib/postgresql";
const SYSTEM_USER = "postgres";

/** The newest installed server's `bin` folder, or an error that says how to install one. */
export function findPostgresBin(): string {
  const versions = existsSync(POSTGRES_ROOT)
    ? readdirSync(POSTGRES_ROOT)
        .filter((version) => existsSync(join(POSTGRES_ROOT, version, "bin", "pg_ctl")))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  const newest = versions[0];
  if (newest === undefined) {
    throw new Error(
      `PostgreSQL's server programs (initdb, pg_ctl) were not found under ${POSTGRES_ROOT}/*/bin: ` +
        "run `apt-get install -y postgresql` (the PostgreSQL tests need a real server)",
    );
  }
  return join(POSTGRES_ROOT, newest, "bin");
}

function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address ? address.port : 0;
      server.close(() => resolvePort(port));
    });
  });
}

/**
 * initdb refuses to run as root, so as root the cluster belongs to the `postgres` system user and
 * every program runs through `runuser` (or `su` where `runuser` is missing).
 */
function asClusterOwner(program: string, args: string[]): [string, string[]] {
  if (process.getuid?.() !== 0) return [program, args];
  if (existsSync("/usr/sbin/runuser") || existsSync("/sbin/runuser")) {
    return ["runuser", ["-u", SYSTEM_USER, "--", program, ...args]];
  }
  const quoted = [program, ...args].map((word) => `'${word.replaceAll("'", "'\\''")}'`).join(" ");
  return ["su", [SYSTEM_USER, "-s", "/bin/sh", "-c", quoted]];
}

function systemUserIds(): { uid: number; gid: number } {
  const uid = Number(execFileSync("id", ["-u", SYSTEM_USER], { encoding: "utf8" }).trim());
  const gid = Number(execFileSync("id", ["-g", SYSTEM_USER], { encoding: "utf8" }).trim());
  return { uid, gid };
}

async function runAsOwner(program: string, args: string[], cwd: string): Promise<void> {
  const [command, commandArgs] = asClusterOwner(program, args);
  try {
    await run(command, commandArgs, { cwd, timeout: 60_000 });
  } catch (error) {
    const { stderr, stdout } = error as { stderr?: string; stdout?: string };
    throw new Error(`${program} ${args.join(" ")} failed:\n${stderr ?? ""}${stdout ?? ""}`);
  }
}

/**
 * Starts a throwaway PostgreSQL cluster: initdb in a fresh temp folder, the server on a free port
 * of 127.0.0.1 only with its socket in that folder and fsync off, and one empty database. A
 * watchdog stops the server and deletes the folder if this process dies without calling `stop()`.
 * With `serverDefaults` (benchmarks), the server keeps its own defaults, fsync and synchronous
 * commits included, so every commit is durable as it would be in production.
 */
export async function startPostgres(
  database = "prepick",
  { serverDefaults = false }: { serverDefaults?: boolean } = {},
): Promise<PostgresCluster> {
  const bin = findPostgresBin();
  const root = mkdtempSync(join(tmpdir(), "prepick-pg-"));
  const dataDir = join(root, "data");
  if (process.getuid?.() === 0) {
    const { uid, gid } = systemUserIds();
    chownSync(root, uid, gid);
  }
  const pgCtl = join(bin, "pg_ctl");
  const stopArgs = ["stop", "-D", dataDir, "-m", "immediate", "-w", "-t", "20"];
  let watchdog: ChildProcess | undefined;
  let stopped = false;

  const stopNow = () => {
    if (stopped) return;
    stopped = true;
    process.off("exit", stopNow);
    if (watchdog?.pid !== undefined && watchdog.exitCode === null) {
      try {
        process.kill(watchdog.pid);
      } catch {
        // Already gone.
      }
    }
    if (existsSync(join(dataDir, "postmaster.pid"))) {
      const [command, args] = asClusterOwner(pgCtl, stopArgs);
      try {
        execFileSync(command, args, { cwd: root, stdio: "ignore", timeout: 30_000 });
      } catch {
        // The server may already be down; the folder goes either way.
      }
    }
    rmSync(root, { recursive: true, force: true });
  };
  process.on("exit", stopNow);

  try {
    await runAsOwner(
      join(bin, "initdb"),
      ["-D", dataDir, "-U", "postgres", "--auth=trust", "--encoding=UTF8", "--no-sync", "--no-instructions"],
      root,
    );
    const [stopCommand, stopCommandArgs] = asClusterOwner(pgCtl, stopArgs);
    const stopLine = [stopCommand, ...stopCommandArgs].map((word) => `'${word}'`).join(" ");
    watchdog = spawn(
      "sh",
      [
        "-c",
        `while kill -0 ${process.pid} 2>/dev/null; do sleep 1; done; ${stopLine} >/dev/null 2>&1; rm -rf '${root}'`,
      ],
      { detached: true, stdio: "ignore" },
    );
    watchdog.unref();

    let port = 0;
    let options = "";
    const startServer = () =>
      runAsOwner(
        pgCtl,
        ["start", "-D", dataDir, "-l", join(root, "server.log"), "-w", "-t", "30", "-o", options],
        root,
      );
    for (let attempt = 1; ; attempt++) {
      port = await freePort();
      options = [
        `-p ${port}`,
        "-c listen_addresses=127.0.0.1",
        `-c unix_socket_directories=${root}`,
        ...(serverDefaults
          ? []
          : [
              "-c fsync=off",
              "-c synchronous_commit=off",
              "-c full_page_writes=off",
              "-c max_connections=200",
            ]),
      ].join(" ");
      try {
        await startServer();
        break;
      } catch (error) {
        // Another process may have taken the port between probing and binding it.
        if (attempt >= 3) throw error;
      }
    }

    const base = `postgres://postgres@127.0.0.1:${port}`;
    const createDatabase = async (name: string, template?: string) => {
      const admin = new pg.Client({ connectionString: `${base}/postgres` });
      await admin.connect();
      try {
        const copy = template === undefined ? "" : ` TEMPLATE ${pg.escapeIdentifier(template)}`;
        await admin.query(`CREATE DATABASE ${pg.escapeIdentifier(name)}${copy}`);
      } finally {
        await admin.end();
      }
      return `${base}/${name}`;
    };
    const url = await createDatabase(database);
    return {
      url,
      directory: root,
      urlFor: (name) => `${base}/${name}`,
      createDatabase,
      suspend: () => runAsOwner(pgCtl, ["stop", "-D", dataDir, "-m", "fast", "-w", "-t", "30"], root),
      resume: startServer,
      stop: async () => stopNow(),
    };
  } catch (error) {
    stopNow();
    throw error;
  }
}
