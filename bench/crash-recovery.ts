import { chatBody } from "../tests/support/agent-api";
import { type ServerProcess, startServer } from "../tests/support/server-process";
import { type BenchRow, figure } from "./result";
import { benchDatabase } from "./store-under-test";

const RUNS = 200;
const LEASE_MS = 2_000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Crash recovery: a process holding 200 runs (each in a long model call) is SIGKILLed; the other
 * process, sharing the PostgreSQL database, must have resumed and finished all of them. Timed
 * from the kill to the last run's finish, against the lease (`PREPICK_LEASE_MS`) plus one second.
 */
export async function crashRecovery(): Promise<BenchRow> {
  const url = await benchDatabase("crash");
  const pg = await import("pg");
  const db = new pg.default.Client({ connectionString: url });
  const servers: ServerProcess[] = [];
  const serve = async (latency: string) => {
    const server = await startServer({
      env: { DATABASE_URL: url, PREPICK_LEASE_MS: String(LEASE_MS), PREPICK_SCRIPTED_LATENCY_MS: latency },
    });
    servers.push(server);
    return server;
  };
  try {
    const doomed = await serve("600000");
    const survivor = await serve("0");
    await db.connect();
    await Promise.all(
      Array.from({ length: RUNS }, async (_, index) => {
        const response = await fetch(`${doomed.url}/agent/chat`, {
          method: "POST",
          headers: { "x-actor-id": "bench-crash", "content-type": "application/json" },
          body: JSON.stringify(chatBody("planner", `Say hello to ${index}`)),
        });
        await response.body?.cancel();
      }),
    );
    for (let waited = 0; ; waited += 50) {
      const { rows } = await db.query(
        "SELECT count(*)::int AS n FROM prepick_runs WHERE status = 'running' AND lease_owner LIKE $1",
        [`process-${doomed.pid}-%`],
      );
      if (rows[0]?.n === RUNS) break;
      if (waited > 30_000) throw new Error(`the doomed process held ${rows[0]?.n} of ${RUNS} runs`);
      await sleep(50);
    }
    const killedAt = Date.now();
    await doomed.kill("SIGKILL");
    // Resumed: running again under the survivor's lease, or already finished by it.
    let resumedAt = 0;
    for (let waited = 0; ; waited += 20) {
      const { rows } = await db.query(
        `SELECT count(*)::int AS n FROM prepick_runs
         WHERE status = 'completed' OR (status = 'running' AND lease_owner LIKE $1)`,
        [`process-${survivor.pid}-%`],
      );
      if (rows[0]?.n === RUNS) {
        resumedAt = Date.now();
        break;
      }
      if (waited > 60_000) throw new Error(`only ${rows[0]?.n} of ${RUNS} runs were resumed`);
      await sleep(20);
    }
    const ms = resumedAt - killedAt;
    return {
      id: "crash-recovery.postgres",
      metric: `Crash recovery: ${RUNS} runs of a SIGKILLed process resumed by the other (PostgreSQL)`,
      baseline: `${figure(LEASE_MS + 1_000, "ms", 0)} (the lease + 1 s)`,
      ours: figure(ms, "ms", 0),
      ratio: figure(ms / (LEASE_MS + 1_000), "×"),
      target: "≤ lease + 1 s",
      pass: ms <= LEASE_MS + 1_000,
    };
  } finally {
    await Promise.all(servers.map((server) => server.kill()));
    await db.end().catch(() => undefined);
  }
}
