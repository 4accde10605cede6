import { type Question, settleAnswers, settleSkipped } from "prepick/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { scopeQuestion, testsQuestion } from "../../src/core/spec-examples";
import type { Database } from "../database/database";
import type { Store } from "../store/store";
import { cacheQuestion, openMemoryStore, waitingCall } from "../testing/waiting-call";
import { NO_CRASH_HOOKS } from "./crash-hooks";
import { Journal } from "./journal";
import { approvalEditsOf, awaitSettlement, settlementFrames, signalName } from "./settlement";
import { CancelSignal, ParkSignal, type TurnContext } from "./turn-context";

const questions: Question[] = [scopeQuestion, testsQuestion];
const ask = { id: "call-ask", name: "ask", input: { questions } };
const editable = {
  id: "call-edit",
  name: "purge_cache",
  input: { cache: "images" },
  questions: [cacheQuestion],
};
const plainTool = { id: "call-tool", name: "purge_cache", input: { cache: "images" } };

describe("signalName", () => {
  it("names a settlement's checkpoint by its run and call", () => {
    expect(signalName("run-1", "call-2")).toBe("signal:tool:run-1:call-2");
  });
});

describe("settlementFrames", () => {
  it("streams a question set's outcome as the loop will read it", () => {
    const output = settleAnswers(questions, { scope: ["file"] });
    expect(settlementFrames(ask, { status: "answered", output })).toEqual([
      { kind: "tool-output", id: "call-ask", output },
    ]);
  });

  it("applies the answer rules again to an outcome written around the endpoint", () => {
    const output = {
      answers: { scope: ["nowhere"], bogus: ["x"] },
      skipped: false,
      defaulted: [],
      summary: "made up",
    };
    expect(settlementFrames(ask, { status: "answered", output })).toEqual([
      { kind: "tool-output", id: "call-ask", output: settleAnswers(questions, {}) },
    ]);
  });

  it("goes by the row's status, not the output's own flag, for a skip", () => {
    const answered = settleAnswers(questions, { scope: ["file"] });
    expect(settlementFrames(ask, { status: "skipped", output: answered })).toEqual([
      { kind: "tool-output", id: "call-ask", output: settleSkipped(questions) },
    ]);
    const flagged = { ...answered, skipped: true };
    expect(settlementFrames(ask, { status: "answered", output: flagged })).toEqual([
      { kind: "tool-output", id: "call-ask", output: answered },
    ]);
  });

  it("streams a rejection as a denial, with its reason when it gave one", () => {
    expect(settlementFrames(plainTool, { status: "rejected", output: { reason: "not today" } })).toEqual([
      { kind: "tool-denied", id: "call-tool", reason: "not today" },
    ]);
    for (const output of [{}, null]) {
      // Exactly: no reason key at all, not one left undefined.
      expect(settlementFrames(plainTool, { status: "rejected", output })).toStrictEqual([
        { kind: "tool-denied", id: "call-tool" },
      ]);
    }
    expect(settlementFrames(editable, { status: "rejected", output: {} })).toEqual([
      { kind: "tool-denied", id: "call-edit" },
    ]);
  });

  it("streams nothing for the approval of a tool that is not editable", () => {
    expect(settlementFrames(plainTool, { status: "approved", output: null })).toEqual([]);
  });

  it("streams an editable call's approval with the input it runs with and the fields edited", () => {
    const output = { input: { cache: "pages" }, edited: ["cache"] };
    expect(settlementFrames(editable, { status: "approved", output })).toEqual([
      { kind: "tool-approved", id: "call-edit", input: { cache: "pages" }, edited: ["cache"] },
    ]);
  });

  it("streams an editable call approved straight in the store as its proposal, unedited", () => {
    for (const output of [null, { edited: "cache" }]) {
      expect(settlementFrames(editable, { status: "approved", output })).toEqual([
        { kind: "tool-approved", id: "call-edit", input: { cache: "images" }, edited: [] },
      ]);
    }
  });

  it("streams nothing of its own for an editable call settled otherwise (cancelled)", () => {
    expect(settlementFrames(editable, { status: "cancelled", output: null })).toEqual([]);
  });
});

describe("approvalEditsOf", () => {
  it("reads the edits of an approval, and of nothing else", () => {
    const output = { input: { cache: "pages" }, edited: ["cache"] };
    expect(approvalEditsOf({ status: "approved", output })).toEqual(output);
    expect(approvalEditsOf({ status: "rejected", output })).toBeUndefined();
    expect(approvalEditsOf({ status: "approved", output: null })).toBeUndefined();
  });
});

describe("awaitSettlement", () => {
  let db: Database;
  let store: Store;

  beforeAll(async () => {
    ({ db, store } = await openMemoryStore());
  });
  afterAll(() => db.close());

  /** The loop's context for the run, its journal past the start, as a claim of it makes it. */
  async function turnOf(runId: string): Promise<TurnContext> {
    await db.query("UPDATE prepick_runs SET status = 'running', lease_owner = 'worker' WHERE id = $1", [
      runId,
    ]);
    const run = await store.runs.get(runId);
    if (!run) throw new Error(`no run ${runId}`);
    const journal = new Journal(store, run, "worker", await store.checkpoints.list(runId), NO_CRASH_HOOKS, 2);
    await journal.step("persist:run:start", async () => {
      throw new Error("replayed");
    });
    await journal.step("intake:ask", async () => {
      throw new Error("replayed");
    });
    return { store, run, journal } as unknown as TurnContext;
  }

  const framesOf = async (runId: string) => (await store.frames.after(runId, 0)).map(({ frame }) => frame);

  it("parks the run while the call still waits, recording nothing", async () => {
    const { runId, callId } = await waitingCall(store, { name: "parks", input: { questions } });
    const turn = await turnOf(runId);
    await expect(awaitSettlement(turn, callId)).rejects.toEqual(new ParkSignal(callId));
    expect(turn.journal.recordedHere).toBe(false);
    expect((await store.checkpoints.list(runId)).map((entry) => entry.name)).toEqual([
      "persist:run:start",
      "intake:ask",
    ]);
  });

  it("ends the turn as cancelled when the call was cancelled", async () => {
    const { runId, callId } = await waitingCall(store, { name: "cancels", input: { questions } });
    await db.query("UPDATE prepick_tool_calls SET status = 'cancelled' WHERE id = $1", [callId]);
    await expect(awaitSettlement(await turnOf(runId), callId)).rejects.toBeInstanceOf(CancelSignal);
  });

  it("fails on a call that has no row, naming it and its run", async () => {
    const { runId } = await waitingCall(store, { name: "rowless", input: { questions } });
    await expect(awaitSettlement(await turnOf(runId), "call-gone")).rejects.toThrow(
      `The tool call call-gone of run ${runId} has no row.`,
    );
  });

  it("records the settlement it finds with the frames the person's request would have streamed", async () => {
    const { runId, callId } = await waitingCall(store, { name: "finds", input: { questions } });
    const output = settleSkipped(questions);
    await db.query("UPDATE prepick_tool_calls SET status = 'skipped', output = $2::jsonb WHERE id = $1", [
      callId,
      JSON.stringify(output),
    ]);
    const turn = await turnOf(runId);
    expect(await awaitSettlement(turn, callId)).toEqual({ status: "skipped", output });
    expect((await store.checkpoints.list(runId)).at(-1)).toEqual({
      position: 2,
      name: signalName(runId, callId),
      result: { status: "skipped", output },
    });
    expect((await framesOf(runId)).at(-1)).toEqual({ kind: "tool-output", id: callId, output });

    // A replay returns the recorded settlement, whatever the row says now.
    await db.query("UPDATE prepick_tool_calls SET status = 'pending_approval' WHERE id = $1", [callId]);
    expect(await awaitSettlement(await turnOf(runId), callId)).toEqual({ status: "skipped", output });
  });
});
