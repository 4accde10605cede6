import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chatBody, intakeId } from "../support/agent-api";
import { apiClient } from "../support/api-client";
import { type ServerProcess, startServer } from "../support/server-process";
import { readFrames } from "../support/sse";
import { waitFor } from "../support/wait-for";
import { type FaultCluster, startFaultCluster } from "./support/fault-database";

const THREADS = 200;
const CLIENTS = 20;
// The process is killed once this many threads have started, mid-load.
const KILL_AFTER = 60;
const MAX_ATTEMPTS = 40;

let cluster: FaultCluster | undefined;
let databaseUrl = "";
const live: ServerProcess[] = [];
const everyProcess: ServerProcess[] = [];

async function serve(): Promise<ServerProcess> {
  const started = await startServer({ env: { DATABASE_URL: databaseUrl } });
  everyProcess.push(started);
  live.push(started);
  return started;
}

beforeAll(async () => {
  cluster = await startFaultCluster("load_failure");
  databaseUrl = await cluster.freshDatabase();
  // The first process migrates; the second starts after it.
  await serve();
  await serve();
}, 90_000);

afterAll(async () => {
  await Promise.all(everyProcess.map((started) => started.kill()));
  await cluster?.stop();
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Runs `work` against a live process, moving to another one when a request fails mid-way. */
async function onAnyProcess<T>(what: string, work: (url: string) => Promise<T>): Promise<T> {
  let last: unknown;
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    const target = live[attempt % Math.max(1, live.length)];
    if (target) {
      try {
        return await work(target.url);
      } catch (error) {
        last = error;
      }
    }
    await sleep(100);
  }
  throw new Error(`${what} failed ${MAX_ATTEMPTS} times; last: ${String(last)}`);
}

/** What one settle attempt got, for counting settlements. */
interface Attempt {
  toolCallId: string;
  status: number;
}

describe("load with a failure", { timeout: 300_000 }, () => {
  it(`finishes all ${THREADS} intake runs of ${CLIENTS} clients on two processes, one killed and restarted`, async () => {
    if (!cluster) throw new Error("the PostgreSQL cluster did not start");
    const faults = cluster;
    const attempts: Attempt[] = [];
    let started = 0;
    let killed: Promise<void> | undefined;

    const killAndRestart = async () => {
      const victim = live.shift();
      if (!victim) return;
      await victim.kill("SIGKILL");
      // Its leases end as time would end them; only the dead process's, so no live claim is broken.
      await faults.query(
        databaseUrl,
        "UPDATE prepick_runs SET lease_until = now() - interval '1 second' WHERE lease_owner LIKE $1",
        [`process-${victim.pid}-%`],
      );
      await serve();
    };

    const settle = async (actor: string, toolCallId: string) => {
      await onAnyProcess(`answering ${toolCallId}`, async (url) => {
        let response: Awaited<ReturnType<ReturnType<typeof apiClient>["post"]>>;
        try {
          response = await apiClient(url, actor).post("/agent/tool-call/answer", { toolCallId });
        } catch (error) {
          // The process died mid-request: the answer may have committed before it did, so this
          // attempt counts (status 0) and a later 409 for the same call is expected.
          attempts.push({ toolCallId, status: 0 });
          throw error;
        }
        attempts.push({ toolCallId, status: response.status });
        if (response.status !== 200 && response.status !== 409) {
          throw new Error(`answer ${toolCallId}: ${response.status} ${JSON.stringify(response.body)}`);
        }
      });
    };

    const client = async (index: number) => {
      const actor = `load-client-${index}`;
      for (let thread = 0; thread < THREADS / CLIENTS; thread++) {
        started += 1;
        if (started === KILL_AFTER) killed = killAndRestart();
        const runId = await onAnyProcess(`chat of ${actor}`, async (url) => {
          const response = await apiClient(url, actor).postStream(
            "/agent/chat",
            chatBody("refactorer", `Refactor module ${index}-${thread}`),
          );
          if (response.status !== 200) throw new Error(`chat answered ${response.status}`);
          // The stream may die with its process; the run is in the store either way.
          await readFrames(response).catch(() => undefined);
          return response.headers.get("x-run-id") ?? "";
        });
        const toolCallId = intakeId(runId);
        await waitFor(
          `${toolCallId} to wait for an answer`,
          () =>
            onAnyProcess("reading approvals", async (url) => {
              const pending = (await apiClient(url, actor).get("/agent/approvals?limit=200")).body as {
                approvals: { id: string }[];
              };
              return pending.approvals.some((row) => row.id === toolCallId) ? true : undefined;
            }),
          { timeoutMs: 60_000, intervalMs: 100 },
        );
        await settle(actor, toolCallId);
      }
      // A chat that died after its run was stored left a run this client never heard of.
      const leftovers = await onAnyProcess("reading approvals", async (url) => {
        const pending = (await apiClient(url, actor).get("/agent/approvals?limit=200")).body as {
          approvals: { id: string }[];
        };
        return pending.approvals.map((row) => row.id);
      });
      for (const toolCallId of leftovers) await settle(actor, toolCallId);
    };

    await Promise.all(Array.from({ length: CLIENTS }, (_, index) => client(index)));
    await killed;
    expect(everyProcess).toHaveLength(3);

    const runs = await waitFor(
      "every run to finish",
      async () => {
        const rows = await faults.query<{ id: string; status: string }>(
          databaseUrl,
          "SELECT id, status FROM prepick_runs ORDER BY id",
        );
        if (rows.every((row) => row.status === "completed")) return rows;
        // A run whose chat died with its process is resumed by a sweep and may park only after its
        // client last looked at its inbox: its person answers it now, as a person would.
        const waiting = await faults.query<{ id: string; actor_id: string }>(
          databaseUrl,
          "SELECT id, actor_id FROM prepick_tool_calls WHERE status = 'pending_approval'",
        );
        for (const row of waiting) await settle(row.actor_id, row.id);
        return undefined;
      },
      { timeoutMs: 90_000, intervalMs: 250 },
    );
    expect(runs.length).toBeGreaterThanOrEqual(THREADS);

    // Each run: its question set settled once, one outcome frame, one finish, no gap in the frames.
    const perRun = await faults.query<{
      id: string;
      settled: number;
      outputs: number;
      finishes: number;
      frames: number;
      last: number;
      answers: number;
      names: number;
      distinctNames: number;
    }>(
      databaseUrl,
      `SELECT r.id,
         (SELECT count(*)::int FROM prepick_tool_calls t WHERE t.run_id = r.id AND t.status = 'answered') AS settled,
         (SELECT count(*)::int FROM prepick_frames f WHERE f.run_id = r.id AND f.frame->>'kind' = 'tool-output') AS outputs,
         (SELECT count(*)::int FROM prepick_frames f WHERE f.run_id = r.id AND f.frame->>'kind' = 'run-finish') AS finishes,
         (SELECT count(*)::int FROM prepick_frames f WHERE f.run_id = r.id) AS frames,
         (SELECT max(seq)::int FROM prepick_frames f WHERE f.run_id = r.id) AS last,
         (SELECT count(*)::int FROM prepick_checkpoints c WHERE c.run_id = r.id AND c.name = 'intake:answers') AS answers,
         (SELECT count(*)::int FROM prepick_checkpoints c WHERE c.run_id = r.id) AS names,
         (SELECT count(DISTINCT name)::int FROM prepick_checkpoints c WHERE c.run_id = r.id) AS "distinctNames"
       FROM prepick_runs r ORDER BY r.id`,
    );
    for (const run of perRun) {
      expect(run, run.id).toMatchObject({
        settled: 1,
        outputs: 1,
        finishes: 1,
        answers: 1,
        last: run.frames,
      });
      expect(run.distinctNames, run.id).toBe(run.names);
    }

    // One 200 per call; a 409 only where an earlier attempt may have landed before its process died.
    const byCall = Map.groupBy(attempts, (attempt) => attempt.toolCallId);
    expect(byCall.size).toBe(runs.length);
    for (const [toolCallId, tries] of byCall) {
      const accepted = tries.filter((attempt) => attempt.status === 200).length;
      expect(accepted, `${toolCallId}: ${JSON.stringify(tries)}`).toBeLessThanOrEqual(1);
      if (accepted === 0) expect(tries.length, `${toolCallId} was never accepted`).toBeGreaterThan(1);
    }
  });
});
