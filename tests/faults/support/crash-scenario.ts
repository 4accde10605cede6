import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { chatBody, checkpointNames, followRun, startChat } from "../../support/agent-api";
import { type ApiClient, type ApiResponse, apiClient } from "../../support/api-client";
import { type ServerProcess, startServer } from "../../support/server-process";
import { readFrames } from "../../support/sse";
import { type FaultCluster, startFaultCluster } from "./fault-database";
import { normalizeIds } from "./normalize-ids";

/** One turn to crash at every checkpoint of: which agent, what the user says, how a person settles. */
export interface CrashScenario {
  /** Names the suite and its databases (lowercase, underscores). */
  name: string;
  /** The agent: a demo agent, or one of the module `agentsModule` names. */
  agent: string;
  /** A module of agents the servers host instead of the demo agents (`PREPICK_AGENTS_MODULE`). */
  agentsModule?: string;
  /** The user's message. */
  text: string;
  /**
   * The uninterrupted run's journal, `<run>` standing for its run id: one case per position,
   * each killed there and required to finish exactly as the uninterrupted run did.
   */
  journal: readonly string[];
  /** Settles a pending call the turn parks on (answer, skip or approve); `name` is the row's tool. */
  settle(client: ApiClient, toolCallId: string, name: string): Promise<ApiResponse>;
  /** Extra checks on a finished run's store, e.g. that a side effect ran once. */
  checkStore?(cluster: FaultCluster, databaseUrl: string, runId: string): Promise<void>;
  /**
   * The checkpoint whose work is a side effect: killed right before it is recorded, the result
   * is lost, and the run differs from the uninterrupted one by design; `check` says how.
   */
  lostResult?: {
    /** Whether `checkpoint` is that one; `journal` holds the reference run's checkpoint names. */
    matches(checkpoint: string, journal: readonly string[]): boolean;
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

async function outcome(client: ApiClient, runId: string): Promise<Outcome> {
  const frames = await followRun(client, runId, 0);
  expect(frames.at(-1)?.frame).toEqual({ kind: "run-finish", status: "completed" });
  const threadId = frames[0]?.frame.kind === "run-start" ? frames[0].frame.threadId : "";
  const thread = await client.get(`/agent/threads/${encodeURIComponent(threadId)}`);
  expect(thread.status).toBe(200);
  return { thread: thread.body, checkpoints: await checkpointNames(client, runId) };
}

/**
 * The reference run's checkpoint `name` as it will read in run `runId`: every id in a journal's
 * names (the intake's, a model's tool calls') is minted from the run id, so swapping it is enough.
 * Before the run exists its id is unknown: the name is cut to a `*` prefix where the id begins
 * (`persist:toolcall:call-0-0-*`), which only that checkpoint of the one run matches.
 */
function armedName(name: string, referenceRunId: string, runId?: string): string {
  if (runId !== undefined) return name.replaceAll(referenceRunId, runId);
  const at = name.indexOf(referenceRunId);
  return at === -1 ? name : `${name.slice(0, at)}*`;
}

/**
 * What happens once in any run, killed or not: one usage row per journaled model call (a call
 * cut short by a kill is made again but recorded once), and no call left waiting.
 */
async function expectDoneOnce(faults: FaultCluster, url: string, runId: string): Promise<void> {
  const [counts] = await faults.query<{ usage: number; calls: number; pending: number }>(
    url,
    `SELECT (SELECT count(*)::int FROM prepick_usage WHERE run_id = $1) AS usage,
       (SELECT count(*)::int FROM prepick_checkpoints WHERE run_id = $1 AND name LIKE 'stream:step-start:%') AS calls,
       (SELECT count(*)::int FROM prepick_tool_calls WHERE run_id = $1 AND status = 'pending_approval') AS pending`,
    [runId],
  );
  expect(counts?.usage, "usage rows").toBe(counts?.calls);
  expect(counts?.pending, "calls still pending").toBe(0);
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Settles, as a person would, every call the run waits on once it has parked on it, until `until`
 * settles: a turn may park several times (an intake, then an approval). Settling only parked runs
 * keeps each run's frames those of the reference (an answer that lands before the park lets the
 * run go on without a `run-parked` frame). A settlement the server could not take (it was killed
 * meanwhile) is left for the next server; with `strict`, one it refused fails.
 */
async function settleWhileParked(
  scenario: CrashScenario,
  at: { faults: FaultCluster; url: string; client: ApiClient; runId: () => string },
  until: Promise<unknown>,
  strict: boolean,
): Promise<void> {
  let over = false;
  const ended = until.then(
    () => {
      over = true;
    },
    () => {
      over = true;
    },
  );
  while (!over) {
    const rows = await at.faults.query<{ id: string; name: string }>(
      at.url,
      `SELECT c.id, c.name FROM prepick_tool_calls c JOIN prepick_runs r ON r.id = c.run_id
        WHERE c.run_id = $1 AND c.status = 'pending_approval' AND r.status = 'parked' ORDER BY c.created_at`,
      [at.runId()],
    );
    for (const row of rows) {
      const settled = await scenario.settle(at.client, row.id, row.name).catch(() => undefined);
      if (strict && settled?.status !== 200) {
        throw new Error(`settling ${row.id} answered ${settled?.status}: ${JSON.stringify(settled?.body)}`);
      }
    }
    await Promise.race([ended, pause(50)]);
  }
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
  // The run parked on its first wait for a person, its server killed: where every case that is
  // killed from that park on starts, each on a copy of this database.
  let parked: { url: string; runId: string } | undefined;

  const server = async (env: Record<string, string>) => {
    const modules = scenario.agentsModule ? { PREPICK_AGENTS_MODULE: scenario.agentsModule } : {};
    const started = await startServer({ env: { ...modules, ...env } });
    servers.push(started);
    return started;
  };
  const clusterOf = () => {
    if (!cluster) throw new Error("the PostgreSQL cluster did not start");
    return cluster;
  };
  const parkedRun = () => {
    if (!parked) throw new Error("the parked run was not made");
    return parked;
  };

  beforeAll(async () => {
    cluster = await startFaultCluster(scenario.name);
    const url = await cluster.freshDatabase();
    const once = await server({ DATABASE_URL: url });
    const client = apiClient(once.url, ACTOR);
    const turn = await startChat(client, scenario.agent, scenario.text);
    const done = outcome(client, turn.runId);
    await settleWhileParked(
      scenario,
      { faults: clusterOf(), url, client, runId: () => turn.runId },
      done,
      true,
    );
    const finished = await done;
    await expectDoneOnce(cluster, url, turn.runId);
    await scenario.checkStore?.(cluster, url, turn.runId);
    reference = { runId: turn.runId, names: finished.checkpoints, normalized: normalizeIds(finished) };

    const parkedUrl = await cluster.freshDatabase();
    const first = await server({ DATABASE_URL: parkedUrl });
    const parkedTurn = await startChat(apiClient(first.url, ACTOR), scenario.agent, scenario.text);
    await first.kill("SIGKILL");
    parked = { url: parkedUrl, runId: parkedTurn.runId };
  }, 120_000);

  afterEach(async () => {
    await Promise.all(servers.splice(0).map((started) => started.kill()));
  });

  afterAll(async () => {
    await Promise.all(servers.splice(0).map((started) => started.kill()));
    await cluster?.stop();
  });

  describe(`${scenario.agent}: "${scenario.text}" killed at each checkpoint`, { timeout: 120_000 }, () => {
    it("journals the checkpoints the cases below kill at, a wait for a person among them", () => {
      expect(reference?.names).toEqual(
        scenario.journal.map((name) => name.replaceAll("<run>", reference?.runId ?? "")),
      );
      expect(reference?.names.some((name) => name.startsWith("signal:tool:"))).toBe(true);
    });

    for (const [index, expected] of scenario.journal.entries()) {
      for (const { hook, when } of CRASH_HOOKS) {
        it(`finishes like the uninterrupted run when killed ${when} ${expected}`, async () => {
          if (!reference) throw new Error("the reference run did not finish");
          const name = reference.names[index];
          if (name === undefined) throw new Error(`the uninterrupted run has no checkpoint ${index + 1}`);
          const faults = clusterOf();
          const parkAt = reference.names.findIndex((each) => each.startsWith("signal:tool:"));
          const url =
            index < parkAt ? await faults.freshDatabase() : await faults.copyDatabase(parkedRun().url);
          let runId = "";
          let resend = false;
          if (index < parkAt) {
            // Before the first park the run can be crashed from its start, armed before its id exists.
            const armed = armedName(name, reference.runId);
            const doomed = await server({ DATABASE_URL: url, [hook]: armed });
            await chatUntilCrash(doomed, scenario);
            expect((await doomed.exited).signal, `the server was not killed at ${armed}`).toBe("SIGKILL");
            const [row] = await faults.query<{ id: string }>(url, "SELECT id FROM prepick_runs");
            runId = row?.id ?? "";
            if (row === undefined) {
              // Killed before the statement that starts the run (it records persist:run:start):
              // nothing was written and the person's request failed, so they send it again.
              expect(await faults.query(url, "SELECT id FROM prepick_threads")).toEqual([]);
              resend = true;
            }
          } else {
            // The run as a server left it parked on its first wait and was killed, copied.
            runId = parkedRun().runId;
            const armed = armedName(name, reference.runId, runId);
            const doomed = await server({ DATABASE_URL: url, [hook]: armed });
            // The person settles each call as the run parks on it, until the server dies at `armed`.
            const at = { faults, url, client: apiClient(doomed.url, ACTOR), runId: () => runId };
            await settleWhileParked(scenario, at, doomed.exited, false);
            expect((await doomed.exited).signal, `the server was not killed at ${armed}`).toBe("SIGKILL");
          }
          await faults.expireLeases(url);
          const last = await server({ DATABASE_URL: url });
          const client = apiClient(last.url, ACTOR);
          if (resend) runId = (await startChat(client, scenario.agent, scenario.text)).runId;
          const done = outcome(client, runId);
          await settleWhileParked(scenario, { faults, url, client, runId: () => runId }, done, true);
          const finished = await done;
          expect(new Set(finished.checkpoints).size, finished.checkpoints.join("\n")).toBe(
            finished.checkpoints.length,
          );
          await expectDoneOnce(faults, url, runId);
          if (hook === "PREPICK_CRASH_BEFORE" && scenario.lostResult?.matches(name, reference.names)) {
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
