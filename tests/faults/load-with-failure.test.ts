import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EACH_FRAME_SQL } from "../../server/store/frames";
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
// Long enough for a loaded machine: a live process that leaves a request unanswered this long fails.
const TIMEOUT_MS = 60_000;

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

/** One request of the load: what it was, which process it went to, and the status it got (0: none). */
interface Exchange {
  what: string;
  pid: number;
  status: number;
}

/** Every request of the load, answered or not: a test of its own reads them all at the end. */
const exchanges: Exchange[] = [];
/** The process killed mid-load: the only one allowed to leave a request unanswered. */
let killedPid: number | undefined;

/**
 * Sends a request to a live process and records its status. Only a request that got no answer (its
 * process died under it) moves to another process; any answer is returned as it is, to be checked,
 * so no server error is retried away.
 */
async function onAnyProcess<T extends { status: number }>(
  what: string,
  send: (url: string) => Promise<T>,
): Promise<T> {
  let last: unknown;
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    const target = live[attempt % Math.max(1, live.length)];
    if (target) {
      try {
        const response = await send(target.url);
        exchanges.push({ what, pid: target.pid, status: response.status });
        return response;
      } catch (error) {
        exchanges.push({ what, pid: target.pid, status: 0 });
        last = error;
      }
    }
    await sleep(100);
  }
  throw new Error(`${what} got no answer ${MAX_ATTEMPTS} times; last: ${String(last)}`);
}

/** Fails at once, naming the request, on a status the request should never get. */
function expectStatus(what: string, got: { status: number; body?: unknown }, allowed: readonly number[]) {
  if (!allowed.includes(got.status)) {
    throw new Error(`${what} answered ${got.status}: ${JSON.stringify(got.body ?? null).slice(0, 500)}`);
  }
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
      killedPid = victim.pid;
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
      const what = `answering ${toolCallId}`;
      const response = await onAnyProcess(what, async (url) => {
        try {
          const answered = await apiClient(url, actor, TIMEOUT_MS).post("/agent/tool-call/answer", {
            toolCallId,
          });
          attempts.push({ toolCallId, status: answered.status });
          return answered;
        } catch (error) {
          // The process died mid-request: the answer may have committed before it did, so this
          // attempt counts (status 0) and a later 409 for the same call is expected.
          attempts.push({ toolCallId, status: 0 });
          throw error;
        }
      });
      expectStatus(what, response, [200, 409]);
    };
    const pendingIds = async (actor: string) => {
      const response = await onAnyProcess(`reading ${actor}'s approvals`, (url) =>
        apiClient(url, actor, TIMEOUT_MS).get("/agent/approvals?limit=200"),
      );
      expectStatus(`reading ${actor}'s approvals`, response, [200]);
      return (response.body as { approvals: { id: string }[] }).approvals.map((row) => row.id);
    };

    const client = async (index: number) => {
      const actor = `load-client-${index}`;
      for (let thread = 0; thread < THREADS / CLIENTS; thread++) {
        started += 1;
        if (started === KILL_AFTER) killed = killAndRestart();
        const what = `chat of ${actor}`;
        const chat = await onAnyProcess(what, (url) =>
          apiClient(url, actor, TIMEOUT_MS).postStream(
            "/agent/chat",
            chatBody("refactorer", `Refactor module ${index}-${thread}`),
          ),
        );
        expectStatus(what, chat, [200]);
        // The stream may die with its process; the run is in the store either way.
        await readFrames(chat).catch(() => undefined);
        const toolCallId = intakeId(chat.headers.get("x-run-id") ?? "");
        await waitFor(
          `${toolCallId} to wait for an answer`,
          async () => ((await pendingIds(actor)).includes(toolCallId) ? true : undefined),
          { timeoutMs: 60_000, intervalMs: 100 },
        );
        await settle(actor, toolCallId);
      }
      // A chat that died after its run was stored left a run this client never heard of.
      for (const toolCallId of await pendingIds(actor)) await settle(actor, toolCallId);
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
         (SELECT count(*)::int FROM ${EACH_FRAME_SQL} f WHERE f.run_id = r.id AND f.frame->>'kind' = 'tool-output') AS outputs,
         (SELECT count(*)::int FROM ${EACH_FRAME_SQL} f WHERE f.run_id = r.id AND f.frame->>'kind' = 'run-finish') AS finishes,
         (SELECT count(*)::int FROM ${EACH_FRAME_SQL} f WHERE f.run_id = r.id) AS frames,
         (SELECT max(seq)::int FROM ${EACH_FRAME_SQL} f WHERE f.run_id = r.id) AS last,
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

    // Every request got an answer from a live process, none of them a server error; only the killed
    // process left requests unanswered.
    expect(exchanges.filter((exchange) => exchange.status >= 500)).toEqual([]);
    expect(exchanges.filter((exchange) => exchange.status === 0 && exchange.pid !== killedPid)).toEqual([]);
    expect(exchanges.length).toBeGreaterThan(THREADS * 3);

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
