import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { approvals, chatBody, checkpointNames, followRun, startChat } from "../../support/agent-api";
import { type ApiClient, type ApiResponse, apiClient } from "../../support/api-client";
import { type ServerProcess, startServer } from "../../support/server-process";
import { readFrames } from "../../support/sse";
import { waitFor } from "../../support/wait-for";
import { type FaultCluster, startFaultCluster } from "./fault-database";
import { normalizeIds } from "./normalize-ids";

/** One turn to crash at every checkpoint of: which agent, what the user says, how a person settles. */
export interface CrashScenario {
  /** Names the suite and its databases (lowercase, underscores). */
  name: string;
  /** The demo agent. */
  agent: string;
  /** The user's message. */
  text: string;
  /** Settles the pending call the turn parks on (answer, skip or approve). */
  settle(client: ApiClient, toolCallId: string): Promise<ApiResponse>;
  /** Extra checks on a finished run's store, e.g. that a side effect ran once. */
  checkStore?(cluster: FaultCluster, databaseUrl: string, runId: string): Promise<void>;
  /**
   * The checkpoint whose work is a side effect: killed right before it is recorded, the result
   * is lost, and the run differs from the uninterrupted one by design; `check` says how.
   */
  lostResult?: {
    matches(checkpoint: string): boolean;
    check(cluster: FaultCluster, databaseUrl: string, runId: string): Promise<void>;
  };
}

/** What a finished run looks like, ids normalised: its thread (every frame) and its journal. */
interface Outcome {
  thread: unknown;
  checkpoints: string[];
}

const ACTOR = "crash-tester";

/** Each position is killed twice: right after it is recorded, and right before (its work done). */
const CRASH_HOOKS = [
  { hook: "PREPICK_CRASH_AT", when: "right after" },
  { hook: "PREPICK_CRASH_BEFORE", when: "right before" },
] as const;

/** The longest journal a scenario may have; one test per position. */
const MAX_CHECKPOINTS = 9;

async function outcome(client: ApiClient, runId: string): Promise<Outcome> {
  const frames = await followRun(client, runId, 0);
  expect(frames.at(-1)?.frame).toEqual({ kind: "run-finish", status: "completed" });
  const threadId = frames[0]?.frame.kind === "run-start" ? frames[0].frame.threadId : "";
  const thread = await client.get(`/agent/threads/${encodeURIComponent(threadId)}`);
  expect(thread.status).toBe(200);
  return { thread: thread.body, checkpoints: await checkpointNames(client, runId) };
}

/** The one pending call the actor has, once the run has parked on it. */
function pendingCall(client: ApiClient): Promise<string> {
  return waitFor("the run to park on a pending call", async () => {
    const [row] = await approvals(client);
    return typeof row?.id === "string" ? row.id : undefined;
  });
}

/** Posts the chat message to a server that is about to kill itself, reading whatever it streams. */
async function chatUntilCrash(server: ServerProcess, scenario: CrashScenario): Promise<void> {
  try {
    const response = await apiClient(server.url, ACTOR).postStream(
      "/agent/chat",
      chatBody(scenario.agent, scenario.text),
    );
    await readFrames(response);
  } catch {
    // The connection dies with the process: that is the point.
  }
}

/**
 * Defines the suite: an uninterrupted reference run, then for every checkpoint of that run a
 * server that SIGKILLs itself right after recording it (`PREPICK_CRASH_AT`) or right before
 * (`PREPICK_CRASH_BEFORE`), a restart, and the run taken to its end. Each finished run must equal
 * the reference: the same frames in the thread, the same journal, every side effect once.
 */
export function crashAtEveryCheckpoint(scenario: CrashScenario): void {
  let cluster: FaultCluster | undefined;
  const servers: ServerProcess[] = [];
  let reference: { runId: string; names: string[]; normalized: unknown } | undefined;

  const server = async (env: Record<string, string>) => {
    const started = await startServer({ env });
    servers.push(started);
    return started;
  };
  const clusterOf = () => {
    if (!cluster) throw new Error("the PostgreSQL cluster did not start");
    return cluster;
  };

  beforeAll(async () => {
    cluster = await startFaultCluster(scenario.name);
    const url = await cluster.freshDatabase();
    const once = await server({ DATABASE_URL: url });
    const client = apiClient(once.url, ACTOR);
    const turn = await startChat(client, scenario.agent, scenario.text);
    const settled = await scenario.settle(client, await pendingCall(client));
    expect(settled.status, JSON.stringify(settled.body)).toBe(200);
    const finished = await outcome(client, turn.runId);
    await scenario.checkStore?.(cluster, url, turn.runId);
    reference = { runId: turn.runId, names: finished.checkpoints, normalized: normalizeIds(finished) };
  }, 120_000);

  afterEach(async () => {
    await Promise.all(servers.splice(0).map((started) => started.kill()));
  });

  afterAll(async () => {
    await Promise.all(servers.splice(0).map((started) => started.kill()));
    await cluster?.stop();
  });

  describe(`${scenario.agent}: "${scenario.text}" killed at each checkpoint`, { timeout: 120_000 }, () => {
    it("journals a wait for a person, and no more checkpoints than the table below covers", () => {
      expect(reference?.names.some((name) => name.startsWith("signal:tool:"))).toBe(true);
      expect(reference?.names.length).toBeLessThanOrEqual(MAX_CHECKPOINTS);
    });

    // The journal's length is known only after the reference run; a fixed bound keeps the table
    // static for vitest, and the cases past the journal's end check that it really ended.
    for (let index = 0; index < MAX_CHECKPOINTS; index++) {
      for (const { hook, when } of CRASH_HOOKS) {
        it(`finishes like the uninterrupted run when killed ${when} checkpoint ${index + 1}`, async () => {
          if (!reference) throw new Error("the reference run did not finish");
          const name = reference.names[index];
          if (name === undefined) {
            expect(index).toBeGreaterThanOrEqual(reference.names.length);
            return;
          }
          const faults = clusterOf();
          const url = await faults.freshDatabase();
          const parkAt = reference.names.findIndex((each) => each.startsWith("signal:tool:"));
          let runId: string;
          if (index < parkAt) {
            // Before the park the names hold no run id, so the crash can be armed from the start.
            expect(name).not.toContain(reference.runId);
            const doomed = await server({ DATABASE_URL: url, [hook]: name });
            await chatUntilCrash(doomed, scenario);
            expect((await doomed.exited).signal, `the server was not killed at ${name}`).toBe("SIGKILL");
            await faults.expireLeases(url);
            const restarted = await server({ DATABASE_URL: url });
            const client = apiClient(restarted.url, ACTOR);
            const [row] = await faults.query<{ id: string }>(url, "SELECT id FROM prepick_runs");
            runId = row?.id ?? "";
            // Answer only once the replay has parked, as in the reference run: an answer that lands
            // between the pending row and the park lets the run go on without a run-parked frame.
            await waitFor("the restarted run to park", async () => {
              const [run] = await faults.query<{ status: string }>(url, "SELECT status FROM prepick_runs");
              return run?.status === "parked" ? true : undefined;
            });
            const settled = await scenario.settle(client, await pendingCall(client));
            expect(settled.status, JSON.stringify(settled.body)).toBe(200);
          } else {
            const first = await server({ DATABASE_URL: url });
            const turn = await startChat(apiClient(first.url, ACTOR), scenario.agent, scenario.text);
            runId = turn.runId;
            await first.kill("SIGKILL");
            const armed = name.replaceAll(reference.runId, runId);
            const doomed = await server({ DATABASE_URL: url, [hook]: armed });
            const client = apiClient(doomed.url, ACTOR);
            await scenario.settle(client, await pendingCall(client)).catch(() => undefined);
            expect((await doomed.exited).signal, `the server was not killed at ${armed}`).toBe("SIGKILL");
            await faults.expireLeases(url);
          }
          const last = await server({ DATABASE_URL: url });
          const finished = await outcome(apiClient(last.url, ACTOR), runId);
          expect(new Set(finished.checkpoints).size, finished.checkpoints.join("\n")).toBe(
            finished.checkpoints.length,
          );
          if (hook === "PREPICK_CRASH_BEFORE" && scenario.lostResult?.matches(name)) {
            // The tool ran and the process died before its result was recorded: the replay must not
            // run it again, so the run tells the model the result was lost instead.
            await scenario.lostResult.check(faults, url, runId);
            return;
          }
          expect(normalizeIds(finished)).toEqual(reference.normalized);
          await scenario.checkStore?.(faults, url, runId);
        });
      }
    }
  });
}
