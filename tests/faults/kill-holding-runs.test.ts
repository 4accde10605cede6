import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chatBody } from "../support/agent-api";
import { apiClient } from "../support/api-client";
import { type ServerProcess, startServer } from "../support/server-process";
import { removeTempFolders, tempFolder } from "../support/temp-folder";
import { waitFor } from "../support/wait-for";
import { type FaultCluster, startFaultCluster } from "./support/fault-database";

// One process takes every run and is killed while it holds them, some before their tool's side
// effect and some after it; the other process must take them all over once their short leases
// expire, by itself (no test ends a lease here), and finish each with its side effect done once.
const RUNS = 40;
const LEASE_MS = "1000";

let cluster: FaultCluster | undefined;
let databaseUrl = "";
let log = "";
const servers: ServerProcess[] = [];

async function serve(latencyMs: string): Promise<ServerProcess> {
  const started = await startServer({
    env: {
      DATABASE_URL: databaseUrl,
      PREPICK_AGENTS_MODULE: "tests/faults/support/courier-agent.ts",
      PREPICK_LEASE_MS: LEASE_MS,
      PREPICK_SCRIPTED_LATENCY_MS: latencyMs,
      COURIER_LOG: log,
    },
  });
  servers.push(started);
  return started;
}

beforeAll(async () => {
  cluster = await startFaultCluster("kill_holding");
  databaseUrl = await cluster.freshDatabase();
  log = join(tempFolder(), "sent.log");
  writeFileSync(log, "");
}, 90_000);

afterAll(async () => {
  await Promise.all(servers.map((server) => server.kill()));
  await cluster?.stop();
  removeTempFolders();
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("a process killed while it holds runs", { timeout: 180_000 }, () => {
  it(`leaves all ${RUNS} to the other process, which finishes each with its side effect once`, async () => {
    if (!cluster) throw new Error("the PostgreSQL cluster did not start");
    const faults = cluster;
    // The doomed process's model takes its time, so it holds every run it starts for a while.
    const doomed = await serve("3000");
    await serve("0");
    const client = apiClient(doomed.url, "kim");
    const chats: Promise<unknown>[] = [];
    for (let index = 0; index < RUNS; index++) {
      const response = client.postStream(
        "/agent/chat",
        chatBody("courier", `Send the note to team ${index}`),
      );
      // The streams die with the process; the runs are in the store.
      chats.push(response.then((r) => r.body?.cancel()).catch(() => undefined));
      await sleep(25);
    }
    await Promise.all(chats);
    await waitFor(
      "the doomed process to hold every run",
      async () => {
        const [row] = await faults.query<{ n: number }>(
          databaseUrl,
          "SELECT count(*)::int AS n FROM prepick_runs WHERE status = 'running' AND lease_owner LIKE $1",
          [`process-${doomed.pid}-%`],
        );
        return row?.n === RUNS ? true : undefined;
      },
      { timeoutMs: 30_000, intervalMs: 20 },
    );
    // The runs started first reach their tool's side effect first: kill as soon as one has, while
    // the others have not yet.
    const sentLines = () => readFileSync(log, "utf8").split("\n").filter(Boolean);
    await waitFor(
      "a run of the doomed process to send its note",
      async () => (sentLines().length > 0 ? true : undefined),
      { timeoutMs: 60_000, intervalMs: 10 },
    );
    await doomed.kill("SIGKILL");
    // The mix the test is about: some runs were killed after their side effect, some before it.
    const sentBeforeKill = sentLines();
    expect(sentBeforeKill.length).toBeGreaterThan(0);
    expect(sentBeforeKill.length).toBeLessThan(RUNS);

    const runs = await waitFor(
      "every run to finish on the survivor",
      async () => {
        const rows = await faults.query<{ id: string; status: string }>(
          databaseUrl,
          "SELECT id, status FROM prepick_runs",
        );
        return rows.length === RUNS && rows.every((row) => row.status === "completed") ? rows : undefined;
      },
      { timeoutMs: 60_000, intervalMs: 100 },
    );
    expect(runs).toHaveLength(RUNS);

    const calls = await faults.query<{ status: string; claimed: boolean }>(
      databaseUrl,
      "SELECT status, execution_claimed_at IS NOT NULL AS claimed FROM prepick_tool_calls",
    );
    // Each call's work was claimed once; one killed between its work and its checkpoint is
    // recorded as lost rather than run again.
    expect(calls).toHaveLength(RUNS);
    for (const row of calls) {
      expect(row.claimed).toBe(true);
      expect(["completed", "failed"]).toContain(row.status);
    }
    // At most once: no note is sent twice, and every call recorded as done did send its note. A
    // call killed after its claim and before its work is the one kind that sends none.
    const sent = sentLines();
    // The notes sent before the kill are not sent again; the rest were sent by the survivor.
    expect(sent.slice(0, sentBeforeKill.length)).toEqual(sentBeforeKill);
    expect(new Set(sent).size).toBe(sent.length);
    expect(sent.length).toBeLessThanOrEqual(RUNS);
    expect(sent.length).toBeGreaterThanOrEqual(calls.filter((row) => row.status === "completed").length);
  });
});
