import type { ElicitationOutcome, Frame } from "prepick/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../database/database";
import { openMemoryStore, waitingCall } from "../testing/waiting-call";
import { RUNS_CHANNEL } from "./channels";
import { type PersonSettlement, SettlementStore } from "./settlements";
import type { Store } from "./store";

let db: Database;
let store: Store;

beforeAll(async () => {
  ({ db, store } = await openMemoryStore());
});
afterAll(() => db.close());

const outcome: ElicitationOutcome = { answers: {}, skipped: true, defaulted: [], summary: "skipped" };
const lease = { owner: "me", leaseMs: 30_000 };

/** A run waiting on one pending question set, with two checkpoints and two frames recorded. */
const waitingRun = (name: string, runStatus?: "parked" | "running" | "ready") =>
  waitingCall(store, { name, input: {}, ...(runStatus ? { runStatus } : {}) });

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
    expect(settled).toMatchObject({ settled: true, signalled: true });
    expect(await store.toolCalls.get(callId)).toMatchObject({
      id: callId,
      status: "skipped",
      output: outcome,
    });
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
    // Claimed for the lease's length (30 s), not a lease already over.
    expect(
      await db.query(
        "SELECT lease_owner, lease_until > now() + interval '20 seconds' AS holds FROM prepick_runs WHERE id = $1",
        [runId],
      ),
    ).toEqual([{ lease_owner: "me", holds: true }]);
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

describe("SettlementStore.settle, what else it writes and tells", () => {
  it("claims with the run's last frame number: the signal's frame, or the last before it when it streams none", async () => {
    const streamed = await waitingRun("seq-streamed");
    const withFrame = await store.settlements.settle(settlementOf(streamed.runId, streamed.callId), lease);
    const frames = await store.frames.after(streamed.runId, 0);
    expect(withFrame.settled && withFrame.claimed?.lastSeq).toBe(frames.at(-1)?.seq);
    expect(frames.at(-1)?.frame.kind).toBe("tool-output");

    const quiet = await waitingRun("seq-quiet");
    const silent = settlementOf(quiet.runId, quiet.callId);
    const withoutFrame = await store.settlements.settle(
      { ...silent, signal: { ...silent.signal, frames: [] } },
      lease,
    );
    expect(withoutFrame.settled && withoutFrame.claimed?.lastSeq).toBe(2);
    expect(await kindsOf(quiet.runId)).toEqual(["run-start", "text-delta"]);
  });

  it("hands the frames it wrote to the store's listener, with the first one's number", async () => {
    const { runId, callId } = await waitingRun("told");
    const running = await waitingRun("told-running", "running");
    const told: unknown[] = [];
    store.onFramesWritten((...batch) => told.push(batch));
    try {
      const settlement = settlementOf(runId, callId);
      await store.settlements.settle(settlement, lease);
      expect(told).toEqual([[runId, 3, settlement.signal.frames]]);
      // A running run's signal is the loop's to record: no frame written, none told.
      await store.settlements.settle(settlementOf(running.runId, running.callId), lease);
      expect(told).toHaveLength(1);
    } finally {
      store.onFramesWritten(() => undefined);
    }
  });

  it("wakes a run parked without saying on what, as runs parked before that was recorded", async () => {
    const { runId, callId } = await waitingRun("legacy");
    await db.query("UPDATE prepick_runs SET waiting_on = NULL WHERE id = $1", [runId]);
    const settled = await store.settlements.settle(settlementOf(runId, callId));
    expect(settled).toMatchObject({ settled: true, signalled: false });
    expect(await store.runs.get(runId)).toMatchObject({ status: "ready", wakePending: false });
    expect(await names(runId)).toEqual(["persist:run:start", "intake:ask"]);
  });

  it("leaves a run parked on another call parked, and the row settled", async () => {
    const { runId, callId } = await waitingRun("elsewhere");
    await db.query("UPDATE prepick_runs SET waiting_on = 'call-other' WHERE id = $1", [runId]);
    const settled = await store.settlements.settle(settlementOf(runId, callId), lease);
    expect(settled).toMatchObject({ settled: true, signalled: false });
    expect(await store.toolCalls.get(callId)).toMatchObject({ status: "skipped" });
    expect(settled.settled && settled.claimed).toBeFalsy();
    expect(await store.runs.get(runId)).toMatchObject({ status: "parked", waitingOn: "call-other" });
  });

  it("settles nothing of a run past its deadline, and reports the row still pending", async () => {
    const { runId, callId } = await waitingRun("expired");
    await db.query("UPDATE prepick_runs SET expires_at = now() - interval '1 second' WHERE id = $1", [runId]);
    const settled = await store.settlements.settle(settlementOf(runId, callId), lease);
    expect(settled).toEqual({ settled: false, row: expect.objectContaining({ status: "pending_approval" }) });
    expect((await store.runs.get(runId))?.status).toBe("parked");
    expect(await names(runId)).toEqual(["persist:run:start", "intake:ask"]);
  });

  it("reports a call that does not exist as no row", async () => {
    const { runId } = await waitingRun("rowless");
    expect(await store.settlements.settle(settlementOf(runId, "call-none"), lease)).toEqual({
      settled: false,
      row: undefined,
    });
  });

  it("keeps an edited approval's proposal beside the input it runs with", async () => {
    const { runId, callId } = await waitingRun("edited");
    const approved = { ...settlementOf(runId, callId), status: "approved" as const, output: null };
    const settled = await store.settlements.settle({
      ...approved,
      edits: { edited: ["cache"], input: { cache: "pages" } },
    });
    expect(settled).toMatchObject({ settled: true });
    expect(await store.toolCalls.get(callId)).toMatchObject({
      status: "approved",
      input: { cache: "pages" },
      proposedInput: {},
      edited: ["cache"],
    });

    const asProposed = await waitingRun("unedited");
    const same = {
      ...settlementOf(asProposed.runId, asProposed.callId),
      status: "approved" as const,
      output: null,
    };
    const kept = await store.settlements.settle({ ...same, edits: { edited: [] } });
    expect(kept).toMatchObject({ settled: true });
    const keptRow = await store.toolCalls.get(asProposed.callId);
    expect(keptRow).toMatchObject({ status: "approved", input: {}, edited: [] });
    expect(keptRow?.proposedInput ?? null).toBeNull();
  });
});

describe("SettlementStore.settle when its statement loses a race for the journal's next position", () => {
  /** A database whose first `failures` statements fail as `code` says, then the store's own. */
  function failing(failures: number, code: string): { db: Database; tries: () => number } {
    let tries = 0;
    const flaky: Database = {
      ...db,
      query: async (sql, params) => {
        tries += 1;
        if (tries <= failures) throw Object.assign(new Error(`failed ${tries}`), { code });
        return db.query(sql, params);
      },
    };
    return { db: flaky, tries: () => tries };
  }

  it("tries again, up to three statements in all", async () => {
    const { runId, callId } = await waitingRun("retried");
    const flaky = failing(2, "23505");
    const retried = new SettlementStore(flaky.db, () => undefined);
    expect(await retried.settle(settlementOf(runId, callId), lease)).toMatchObject({
      settled: true,
      signalled: true,
    });
    expect(flaky.tries()).toBe(3);

    const lost = await waitingRun("retried-out");
    const always = failing(3, "23505");
    await expect(
      new SettlementStore(always.db, () => undefined).settle(settlementOf(lost.runId, lost.callId)),
    ).rejects.toThrow("failed 3");
    expect(always.tries()).toBe(3);
    expect((await store.toolCalls.get(lost.callId))?.status).toBe("pending_approval");
  });

  it("never tries again after any other failure", async () => {
    const { runId, callId } = await waitingRun("not-retried");
    const flaky = failing(1, "57P01");
    await expect(
      new SettlementStore(flaky.db, () => undefined).settle(settlementOf(runId, callId)),
    ).rejects.toThrow("failed 1");
    expect(flaky.tries()).toBe(1);
  });
});
