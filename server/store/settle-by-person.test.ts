import type { ElicitationOutcome } from "prepick/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../database/database";
import { openDatabase } from "../database/open-database";
import { startTestRun } from "../testing/start-test-run";
import { createStore, RUNS_CHANNEL, type Store } from "./store";

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

/** A run parked on one pending question set, with two checkpoints in its journal. */
async function parkedRun(name: string, status: "parked" | "running" = "parked") {
  const runId = await startTestRun(store, name);
  const callId = `call-${name}`;
  await db.transaction(async (tx) => {
    await store.insertToolCall(tx, {
      id: callId,
      runId,
      threadId: `thread-${name}`,
      actorId: "ada",
      name: "ask",
      status: "pending_approval",
      input: { questions: [] },
    });
    await store.recordCheckpoints(tx, runId, [
      { position: 0, name: "persist:run:start", result: { messageId: `message-${name}` } },
      { position: 1, name: "intake:ask", result: { asked: true } },
    ]);
  });
  await db.query("UPDATE prepick_runs SET status = $2, lease_owner = $3 WHERE id = $1", [
    runId,
    status,
    status === "running" ? "other" : null,
  ]);
  return { runId, callId };
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

describe("Store.settleByPerson", () => {
  it("claims a parked run for the process that settles it, with its journal, and wakes nobody else", async () => {
    const { runId, callId } = await parkedRun("claimed");
    let settled: Awaited<ReturnType<Store["settleByPerson"]>> | undefined;
    const heard = await heardOn(RUNS_CHANNEL, async () => {
      settled = await store.settleByPerson(callId, "skipped", outcome, { owner: "me", leaseMs: 30_000 });
    });
    expect(heard).toEqual([]);
    expect(settled).toMatchObject({ settled: true, row: { id: callId, status: "skipped", output: outcome } });
    const claimed = settled?.settled ? settled.claimed : undefined;
    expect(claimed?.run).toMatchObject({ id: runId, status: "running", wakePending: false });
    expect(claimed?.checkpoints.map((entry) => entry.name)).toEqual(["persist:run:start", "intake:ask"]);
    expect(await db.query("SELECT lease_owner FROM prepick_runs WHERE id = $1", [runId])).toEqual([
      { lease_owner: "me" },
    ]);
  });

  it("without room to claim, makes the run ready and wakes every process", async () => {
    const { runId, callId } = await parkedRun("woken");
    let settled: Awaited<ReturnType<Store["settleByPerson"]>> | undefined;
    const heard = await heardOn(RUNS_CHANNEL, async () => {
      settled = await store.settleByPerson(callId, "skipped", outcome);
    });
    expect(heard).toEqual([runId]);
    expect(settled?.settled && settled.claimed).toBeFalsy();
    expect((await store.run(runId))?.status).toBe("ready");
  });

  it("never claims a run another process is running: it flags it so that run does not park", async () => {
    const { runId, callId } = await parkedRun("running", "running");
    const settled = await store.settleByPerson(callId, "skipped", outcome, { owner: "me", leaseMs: 30_000 });
    expect(settled.settled && settled.claimed).toBeFalsy();
    expect(await store.run(runId)).toMatchObject({ status: "running", wakePending: true });
    expect(await db.query("SELECT lease_owner FROM prepick_runs WHERE id = $1", [runId])).toEqual([
      { lease_owner: "other" },
    ]);
  });

  it("settles a row once: a second try claims nothing and reports the stored outcome", async () => {
    const { callId } = await parkedRun("twice");
    await store.settleByPerson(callId, "skipped", outcome, { owner: "me", leaseMs: 30_000 });
    const again = await store.settleByPerson(callId, "answered", outcome, { owner: "me", leaseMs: 30_000 });
    expect(again).toEqual({
      settled: false,
      row: expect.objectContaining({ status: "skipped", output: outcome }),
    });
  });
});
