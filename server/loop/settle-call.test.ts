import { type Question, settleAnswers, settleSkipped } from "prepick/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { scopeQuestion, testsQuestion } from "../../src/core/spec-examples";
import type { Database } from "../database/database";
import type { Lease } from "../store/rows";
import type { Store } from "../store/store";
import { cacheQuestion, openMemoryStore, waitingCall } from "../testing/waiting-call";
import type { CrashHooks } from "./crash-hooks";
import { MAX_REASON, notFoundError, type SettleRequest, settleCall } from "./settle-call";
import type { Worker } from "./worker";

// The one settle operation, driven as the endpoints drive it, on one store for the whole file.

let db: Database;
let store: Store;

beforeAll(async () => {
  ({ db, store } = await openMemoryStore());
});
afterAll(() => db.close());

const LEASE: Lease = { owner: "here", leaseMs: 30_000 };

/** The one thing settling asks of the worker: a lease when it has room to run the woken run. */
function admitting(lease: Lease | undefined): Worker {
  return { admit: (claim: (lease?: Lease) => Promise<object>) => claim(lease) } as unknown as Worker;
}

/** Crash hooks that write down which checkpoints they were told of. */
function recordingHooks(): CrashHooks & { seen: string[] } {
  const seen: string[] = [];
  return { seen, before: (name) => seen.push(`before ${name}`), after: (name) => seen.push(`after ${name}`) };
}

async function settle(request: SettleRequest, options: { lease?: Lease | null; hooks?: CrashHooks } = {}) {
  const { lease = LEASE, hooks = recordingHooks() } = options;
  return settleCall({ store, worker: admitting(lease ?? undefined), crashHooks: hooks }, request);
}

const questions: Question[] = [scopeQuestion, testsQuestion];
const askInput = { questions };

/** A question set waiting on `ada`, its run parked on it. */
const askCall = (name: string, runStatus?: "parked" | "running" | "ready") =>
  waitingCall(store, { name, input: askInput, ...(runStatus ? { runStatus } : {}) });

/** A registered tool awaiting `ada`'s approval. */
const toolCall = (name: string, extra: { questions?: Question[]; input?: unknown } = {}) =>
  waitingCall(store, { name, tool: "purge_cache", input: { cache: "images" }, ...extra });

const signalsOf = async (runId: string) =>
  (await store.checkpoints.list(runId)).filter((entry) => entry.name.startsWith("signal:"));
const framesOf = async (runId: string) => (await store.frames.after(runId, 0)).map(({ frame }) => frame);

/** The call as it still waits: nothing settled, nothing journaled, nothing streamed. */
async function expectUntouched(runId: string, callId: string) {
  expect((await store.toolCalls.get(callId))?.status).toBe("pending_approval");
  expect(await signalsOf(runId)).toEqual([]);
  expect((await framesOf(runId)).map((frame) => frame.kind)).toEqual(["run-start", "text-delta"]);
  expect((await store.runs.get(runId))?.status).toBe("parked");
}

describe("settleCall refuses what it cannot settle, changing nothing", () => {
  it("answers a call that does not exist and another actor's call alike: not found", async () => {
    const { runId, callId } = await askCall("foreign");
    const missing = await settle({ actorId: "ada", action: "answer", toolCallId: "call-nowhere" });
    expect(missing).toEqual({ kind: "not-found", error: notFoundError("call-nowhere") });
    const foreign = await settle({ actorId: "bob", action: "skip", toolCallId: callId });
    expect(foreign).toEqual({ kind: "not-found", error: notFoundError(callId) });
    expect(notFoundError(callId)).toBe(`No tool call ${callId} is waiting for you.`);
    await expectUntouched(runId, callId);
  });

  it("refuses to answer or skip a tool awaiting approval, naming the endpoints that decide it", async () => {
    const { runId, callId } = await toolCall("answer-tool");
    const error = `${callId} is the tool "purge_cache" awaiting approval, not a question set; use /agent/tool-call/approve or /agent/tool-call/reject`;
    for (const action of ["answer", "skip"] as const) {
      expect(await settle({ actorId: "ada", action, toolCallId: callId })).toEqual({
        kind: "refused",
        error,
      });
    }
    await expectUntouched(runId, callId);
  });

  it("refuses to approve or reject a question set, naming the endpoints that answer it", async () => {
    const { runId, callId } = await askCall("approve-ask");
    const error = `${callId} is a question set, not a tool awaiting approval; use /agent/tool-call/answer or /agent/tool-call/skip`;
    for (const action of ["approve", "reject"] as const) {
      expect(await settle({ actorId: "ada", action, toolCallId: callId })).toEqual({
        kind: "refused",
        error,
      });
    }
    await expectUntouched(runId, callId);
  });

  it("refuses answers the questions do not allow, with each issue", async () => {
    const { runId, callId } = await askCall("bad-answers");
    const refused = await settle({
      actorId: "ada",
      action: "answer",
      toolCallId: callId,
      answers: { scope: ["everything"], tests: ["none"] },
    });
    expect(refused).toMatchObject({
      kind: "refused",
      issues: [{ questionId: "scope" }, { questionId: "tests" }],
    });
    if (refused.kind !== "refused") throw new Error("not refused");
    const [scope, tests] = refused.issues ?? [];
    expect(refused.error).toBe(`The answers were refused: ${scope?.message}; ${tests?.message}`);
    expect(refused.issues).toHaveLength(2);
    await expectUntouched(runId, callId);
  });

  it("refuses answers that are not an object of string arrays, with the shape's issue", async () => {
    const { runId, callId } = await askCall("shapeless");
    const refused = await settle({ actorId: "ada", action: "answer", toolCallId: callId, answers: ["file"] });
    expect(refused).toEqual({
      kind: "refused",
      error: "The answers were refused: answers must be an object mapping question ids to arrays of strings",
      issues: [expect.objectContaining({ rule: "shape" })],
    });
    await expectUntouched(runId, callId);
  });

  it("refuses a reason that is not a string, or longer than the cap by one", async () => {
    const { runId, callId } = await toolCall("long-reason");
    const error = `reason must be a string of at most ${MAX_REASON} characters`;
    for (const reason of [42, null, "x".repeat(MAX_REASON + 1)]) {
      expect(await settle({ actorId: "ada", action: "reject", toolCallId: callId, reason })).toEqual({
        kind: "refused",
        error,
      });
    }
    expect(MAX_REASON).toBe(2000);
    await expectUntouched(runId, callId);
  });

  it("refuses edits to a tool whose input is not editable, whatever is sent but nothing or {}", async () => {
    const { runId, callId } = await toolCall("not-editable");
    const error = `${callId} is the tool "purge_cache", whose input is not editable; approve it without answers`;
    for (const answers of [{ cache: ["pages"] }, [], null, "pages", "", 0]) {
      expect(await settle({ actorId: "ada", action: "approve", toolCallId: callId, answers })).toEqual({
        kind: "refused",
        error,
      });
    }
    await expectUntouched(runId, callId);
  });

  it("refuses edits the questions do not allow, naming them", async () => {
    const { runId, callId } = await toolCall("bad-edits", { questions: [cacheQuestion] });
    const refused = await settle({
      actorId: "ada",
      action: "approve",
      toolCallId: callId,
      answers: { cache: ["everything"] },
    });
    expect(refused).toMatchObject({ kind: "refused", issues: [{ questionId: "cache" }] });
    if (refused.kind !== "refused") throw new Error("not refused");
    expect(refused.error).toMatch(/^The edits were refused: /);
    await expectUntouched(runId, callId);
  });
});

describe("settleCall settles a waiting call in one statement with its run's signal", () => {
  it("answers a question set: the core's outcome, the signal and its frame, the run claimed here", async () => {
    const { runId, callId } = await askCall("answered");
    const hooks = recordingHooks();
    const answers = { scope: ["file"] };
    const outcome = await settle(
      { actorId: "ada", action: "answer", toolCallId: callId, answers },
      { hooks },
    );
    const output = settleAnswers(questions, answers);
    expect(outcome).toEqual({ kind: "settled", toolCallId: callId, status: "answered", output });
    expect(await store.toolCalls.get(callId)).toMatchObject({ status: "answered", output });
    const signal = `signal:tool:${runId}:${callId}`;
    expect(await signalsOf(runId)).toEqual([
      { position: 2, name: signal, result: { status: "answered", output } },
    ]);
    expect((await framesOf(runId)).at(-1)).toEqual({ kind: "tool-output", id: callId, output });
    expect(hooks.seen).toEqual([`before ${signal}`, `after ${signal}`]);
    expect(await store.runs.get(runId)).toMatchObject({ status: "running", waitingOn: null });
  });

  it("confirms the pre-picked answers when none are sent", async () => {
    const { callId } = await askCall("confirmed");
    const outcome = await settle({ actorId: "ada", action: "answer", toolCallId: callId });
    expect(outcome).toEqual({
      kind: "settled",
      toolCallId: callId,
      status: "answered",
      output: settleAnswers(questions, {}),
    });
  });

  it("skips a question set: every default stands, and the run is made ready for any process", async () => {
    const { runId, callId } = await askCall("skipped");
    const outcome = await settle({ actorId: "ada", action: "skip", toolCallId: callId }, { lease: null });
    const output = settleSkipped(questions);
    expect(outcome).toEqual({ kind: "settled", toolCallId: callId, status: "skipped", output });
    expect((await framesOf(runId)).at(-1)).toEqual({ kind: "tool-output", id: callId, output });
    expect(await store.runs.get(runId)).toMatchObject({ status: "ready", waitingOn: null });
  });

  it("rejects with a reason of exactly the cap, streamed as the denial", async () => {
    const { runId, callId } = await toolCall("rejected");
    const reason = "x".repeat(MAX_REASON);
    const outcome = await settle({ actorId: "ada", action: "reject", toolCallId: callId, reason });
    expect(outcome).toEqual({ kind: "settled", toolCallId: callId, status: "rejected", output: { reason } });
    expect((await framesOf(runId)).at(-1)).toEqual({ kind: "tool-denied", id: callId, reason });
  });

  it("rejects without a reason as an empty output", async () => {
    const { runId, callId } = await toolCall("rejected-bare");
    const outcome = await settle({ actorId: "ada", action: "reject", toolCallId: callId });
    // Exactly {}: no reason key at all, not one left undefined.
    expect(outcome).toStrictEqual({ kind: "settled", toolCallId: callId, status: "rejected", output: {} });
    expect((await framesOf(runId)).at(-1)).toEqual({ kind: "tool-denied", id: callId });
  });

  it("approves a tool as proposed, with no answers or {}: its run goes on, streaming nothing of its own", async () => {
    for (const [name, answers] of [
      ["approved", undefined],
      ["approved-empty", {}],
    ] as const) {
      const { runId, callId } = await toolCall(name);
      const outcome = await settle({ actorId: "ada", action: "approve", toolCallId: callId, answers });
      expect(outcome).toEqual({ kind: "settled", toolCallId: callId, status: "approved", output: null });
      expect(await signalsOf(runId)).toHaveLength(1);
      expect((await framesOf(runId)).map((frame) => frame.kind)).toEqual(["run-start", "text-delta"]);
      expect(await store.toolCalls.get(callId)).toMatchObject({
        status: "approved",
        input: { cache: "images" },
      });
    }
  });

  it("approves an editable tool with edits: the edited input runs, the proposal is kept", async () => {
    const { runId, callId } = await toolCall("edited", {
      questions: [cacheQuestion],
      input: { cache: "images", hours: 2 },
    });
    const outcome = await settle({
      actorId: "ada",
      action: "approve",
      toolCallId: callId,
      answers: { cache: ["pages"] },
    });
    const output = { input: { cache: "pages", hours: 2 }, edited: ["cache"] };
    expect(outcome).toEqual({ kind: "settled", toolCallId: callId, status: "approved", output });
    expect(await store.toolCalls.get(callId)).toMatchObject({
      status: "approved",
      input: output.input,
      proposedInput: { cache: "images", hours: 2 },
      edited: ["cache"],
    });
    expect((await framesOf(runId)).at(-1)).toEqual({ kind: "tool-approved", id: callId, ...output });
  });

  it("approves an editable tool as proposed: nothing edited, the input as the model wrote it", async () => {
    const { runId, callId } = await toolCall("unedited", { questions: [cacheQuestion] });
    const outcome = await settle({
      actorId: "ada",
      action: "approve",
      toolCallId: callId,
      answers: { cache: ["images"] },
    });
    const output = { input: { cache: "images" }, edited: [] };
    expect(outcome).toEqual({ kind: "settled", toolCallId: callId, status: "approved", output });
    const row = await store.toolCalls.get(callId);
    expect(row).toMatchObject({ status: "approved", input: { cache: "images" }, edited: [] });
    expect(row?.proposedInput ?? null).toBeNull();
    expect((await framesOf(runId)).at(-1)).toEqual({ kind: "tool-approved", id: callId, ...output });
  });

  it("settles the row of a running run without its signal, which that run's loop records", async () => {
    const { runId, callId } = await askCall("running", "running");
    const hooks = recordingHooks();
    const outcome = await settle({ actorId: "ada", action: "skip", toolCallId: callId }, { hooks });
    expect(outcome).toMatchObject({ kind: "settled", status: "skipped" });
    expect(await signalsOf(runId)).toEqual([]);
    // The hook before the signal ran (this statement might have recorded it); the one after did not.
    expect(hooks.seen).toEqual([`before signal:tool:${runId}:${callId}`]);
    expect(await store.runs.get(runId)).toMatchObject({ status: "running", wakePending: true });
  });
});

describe("settleCall on a call already decided", () => {
  it("says how it was settled, with the stored output, and records nothing more", async () => {
    const { runId, callId } = await askCall("twice");
    const first = await settle({ actorId: "ada", action: "skip", toolCallId: callId });
    const again = await settle({
      actorId: "ada",
      action: "answer",
      toolCallId: callId,
      answers: { scope: ["file"] },
    });
    expect(again).toEqual({
      kind: "already-settled",
      error: `${callId} was already settled as skipped`,
      status: "skipped",
      output: first.kind === "settled" ? first.output : undefined,
    });
    expect(await signalsOf(runId)).toHaveLength(1);
  });

  it("says it was settled whatever this request sends, even answers it would refuse", async () => {
    const { callId } = await askCall("settled-then-wrong");
    const hooks = recordingHooks();
    await settle({ actorId: "ada", action: "skip", toolCallId: callId });
    const again = await settle(
      { actorId: "ada", action: "answer", toolCallId: callId, answers: { scope: ["everything"] } },
      { hooks },
    );
    expect(again).toMatchObject({ kind: "already-settled", status: "skipped" });
    expect(hooks.seen).toEqual([]);
  });

  it("answers not found for a call removed between the read and the statement", async () => {
    const { runId, callId } = await askCall("removed");
    const stale = await store.toolCalls.get(callId);
    const read = store.toolCalls.get;
    store.toolCalls.get = async () => stale;
    try {
      await db.query("DELETE FROM prepick_tool_calls WHERE id = $1", [callId]);
      expect(await settle({ actorId: "ada", action: "skip", toolCallId: callId })).toEqual({
        kind: "not-found",
        error: notFoundError(callId),
      });
    } finally {
      store.toolCalls.get = read;
    }
    expect(await signalsOf(runId)).toEqual([]);
  });

  it("says so when another request settled it between the read and the statement", async () => {
    const { callId } = await askCall("raced");
    const stale = await store.toolCalls.get(callId);
    const read = store.toolCalls.get;
    // This request reads the row while it still waits; another settles it before this one's statement.
    store.toolCalls.get = async () => stale;
    try {
      const winner = await settle({ actorId: "ada", action: "skip", toolCallId: callId });
      const loser = await settle({ actorId: "ada", action: "answer", toolCallId: callId });
      expect(loser).toEqual({
        kind: "already-settled",
        error: `${callId} was already settled as skipped`,
        status: "skipped",
        output: winner.kind === "settled" ? winner.output : undefined,
      });
    } finally {
      store.toolCalls.get = read;
    }
  });

  it("expires a call whose run's deadline passed instead of settling it", async () => {
    const { runId, callId } = await askCall("late");
    await db.query("UPDATE prepick_runs SET expires_at = now() - interval '1 second' WHERE id = $1", [runId]);
    const hooks = recordingHooks();
    const outcome = await settle({ actorId: "ada", action: "answer", toolCallId: callId }, { hooks });
    const row = await store.toolCalls.get(callId);
    expect(row?.status).toBe("expired");
    expect(outcome).toEqual({
      kind: "already-settled",
      error: `${callId} expired: its run's deadline passed before anyone decided it`,
      status: "expired",
      output: row?.output,
    });
    expect(row?.output).toMatchObject({ expired: true });
    expect(hooks.seen).toEqual([`before signal:tool:${runId}:${callId}`]);
    expect(await signalsOf(runId)).toEqual([]);
    expect((await store.runs.get(runId))?.status).toBe("cancelled");
    // Asked again, it says the same from the expired row.
    expect(await settle({ actorId: "ada", action: "answer", toolCallId: callId })).toEqual(outcome);
  });
});
