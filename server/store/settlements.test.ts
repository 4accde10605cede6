import type { ElicitationOutcome, Frame } from "prepick/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../database/database";
import { openDatabase } from "../database/open-database";
import { startTestRun } from "../testing/start-test-run";
import { RUNS_CHANNEL } from "./channels";
import type { PersonSettlement } from "./settlements";
import { createStore, type Store } from "./store";

let db: Database;
let store: Store;

beforeAll(async () => {
  db = await openDatabase({});
  store = await createStore(db);
});

afterAll(async () => {
  await db.close();
});

const outcome: ElicitationOutcome = { answers: {}, skipped: true, defaulted: [], summary: "skipped" };
const lease = { owner: "me", leaseMs: 30_000 };

/** A run waiting on one pending question set, with two checkpoints and two frames recorded. */
async function waitingRun(name: string, status: "parked" | "running" | "ready" = "parked") {
  const runId = await startTestRun(store, name, "ada", "worker");
  const callId = `call-${name}`;
  await store.checkpoints.record(
    runId,
    "worker",
    // The run's start recorded `persist:run:start` and its `run-start` frame.
    [{ position: 1, name: "intake:ask", result: { asked: true } }],
    {
      newCalls: [
        {
          id: callId,
          threadId: `thread-${name}`,
          actorId: "ada",
          name: "ask",
          status: "pending_approval",
          input: {},
        },
      ],
      frames: [{ kind: "text-delta", id: "t", delta: "asked" }],
    },
  );
  await db.query("UPDATE prepick_runs SET status = $2, lease_owner = $3, waiting_on = $4 WHERE id = $1", [
    runId,
    status,
    status === "running" ? "other" : null,
    status === "parked" ? callId : null,
  ]);
  return { runId, callId };
}

function settlementOf(runId: string, callId: string): PersonSettlement {
  const frame: Frame = { kind: "tool-output", id: callId, output: outcome };
  return {
    callId,
    runId,
    status: "skipped",
    output: outcome,
    signal: {
      name: `signal:tool:${runId}:${callId}`,
      result: { status: "skipped", output: outcome },
      frames: [frame],
    },
  };
}

async function heardOn(channel: string, work: () => Promise<unknown>): Promise<string[]> {
  const heard: string[] = [];
  const unlisten = await db.listen(channel, (payload) => heard.push(payload));
  try {
    await work();
    await db.query("SELECT 1");
    return heard;
  } finally {
    await unlisten();
  }
}

const names = async (runId: string) => (await store.checkpoints.list(runId)).map((entry) => entry.name);
const kindsOf = async (runId: string) => (await store.frames.after(runId, 0)).map(({ frame }) => frame.kind);

describe("SettlementStore.settle", () => {
  it("records the signal and its frame for a run parked on the call, and claims the run with its journal", async () => {
    const { runId, callId } = await waitingRun("claimed");
    let settled: Awaited<ReturnType<Store["settlements"]["settle"]>> | undefined;
    const heard = await heardOn(RUNS_CHANNEL, async () => {
      settled = await store.settlements.settle(settlementOf(runId, callId), lease);
    });
    expect(heard).toEqual([]);
    expect(settled).toMatchObject({ settled: true, signalled: true, row: { id: callId, status: "skipped" } });
    const claimed = settled?.settled ? settled.claimed : undefined;
    expect(claimed?.run).toMatchObject({ id: runId, status: "running", waitingOn: null, wakePending: false });
    const journal = ["persist:run:start", "intake:ask", `signal:tool:${runId}:${callId}`];
    expect(claimed?.checkpoints.map((entry) => entry.name)).toEqual(journal);
    expect(claimed?.checkpoints[2]).toEqual({
      position: 2,
      name: journal[2],
      result: { status: "skipped", output: outcome },
    });
    expect(await names(runId)).toEqual(journal);
    expect(await kindsOf(runId)).toEqual(["run-start", "text-delta", "tool-output"]);
    expect(await db.query("SELECT lease_owner FROM prepick_runs WHERE id = $1", [runId])).toEqual([
      { lease_owner: "me" },
    ]);
  });

  it("without a lease, records the signal, makes the run ready and wakes every process", async () => {
    const { runId, callId } = await waitingRun("woken");
    let settled: Awaited<ReturnType<Store["settlements"]["settle"]>> | undefined;
    const heard = await heardOn(RUNS_CHANNEL, async () => {
      settled = await store.settlements.settle(settlementOf(runId, callId));
    });
    expect(heard).toEqual([runId]);
    expect(settled).toMatchObject({ settled: true, signalled: true });
    expect(settled?.settled && settled.claimed).toBeFalsy();
    expect((await store.runs.get(runId))?.status).toBe("ready");
    expect(await names(runId)).toContain(`signal:tool:${runId}:${callId}`);
  });

  it("never writes the journal of a run that is running: it flags it so that run does not park", async () => {
    const { runId, callId } = await waitingRun("running", "running");
    const settled = await store.settlements.settle(settlementOf(runId, callId), lease);
    expect(settled).toMatchObject({ settled: true, signalled: false });
    expect(settled.settled && settled.claimed).toBeFalsy();
    expect(await store.runs.get(runId)).toMatchObject({ status: "running", wakePending: true });
    expect(await db.query("SELECT lease_owner FROM prepick_runs WHERE id = $1", [runId])).toEqual([
      { lease_owner: "other" },
    ]);
    expect(await names(runId)).toEqual(["persist:run:start", "intake:ask"]);
    expect(await kindsOf(runId)).toEqual(["run-start", "text-delta"]);
  });

  it("leaves a ready run's journal to the loop, which may be anywhere in it", async () => {
    const { runId, callId } = await waitingRun("ready", "ready");
    const settled = await store.settlements.settle(settlementOf(runId, callId), lease);
    expect(settled).toMatchObject({ settled: true, signalled: false });
    expect(settled.settled && settled.claimed).toBeFalsy();
    expect((await store.runs.get(runId))?.status).toBe("ready");
    expect(await names(runId)).toEqual(["persist:run:start", "intake:ask"]);
  });

  it("settles a row once: a second try claims nothing, records nothing and reports the stored outcome", async () => {
    const { runId, callId } = await waitingRun("twice");
    await store.settlements.settle(settlementOf(runId, callId), lease);
    const again = await store.settlements.settle(
      { ...settlementOf(runId, callId), status: "answered" },
      lease,
    );
    expect(again).toEqual({
      settled: false,
      row: expect.objectContaining({ status: "skipped", output: outcome }),
    });
    expect((await names(runId)).filter((name) => name.startsWith("signal:"))).toHaveLength(1);
  });
});
