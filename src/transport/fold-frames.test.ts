import { describe, expect, it } from "vitest";
import type { Frame, SequencedFrame } from "@/lib/prepick/core/frames";
import { foldFrame, foldFrames, INITIAL_FOLD_STATE } from "./fold-frames";
import { readRunFailure } from "./run-failure";

const sequence = (frames: Frame[], from = 1): SequencedFrame[] =>
  frames.map((frame, index) => ({ seq: from + index, frame }));
const start: Frame = { kind: "run-start", runId: "r", threadId: "t", messageId: "m", agent: "a" };

describe("foldFrames", () => {
  it("carries a run's deadline on the part of each call that waits on a person, as the tool's metadata", () => {
    const expiresAt = "2026-12-03T18:30:00.000Z";
    const { chunks } = foldFrames(
      sequence([
        start,
        { kind: "elicitation", id: "q", request: { questions: [] }, expiresAt },
        {
          kind: "approval-request",
          id: "p",
          toolName: "purge",
          input: {},
          description: "Purges.",
          expiresAt,
        },
      ]),
    );
    expect(chunks).toContainEqual(
      expect.objectContaining({ type: "tool-input-available", toolCallId: "q", toolMetadata: { expiresAt } }),
    );
    expect(chunks).toContainEqual(
      expect.objectContaining({
        type: "tool-input-available",
        toolCallId: "p",
        toolMetadata: { description: "Purges.", expiresAt },
      }),
    );
  });

  it("turns an elicitation and its later output into one dynamic, provider-executed ask part", () => {
    const request = { questions: [] };
    const { chunks, state } = foldFrames(
      sequence([
        start,
        { kind: "elicitation", id: "q", request },
        { kind: "tool-output", id: "q", output: { ok: 1 } },
      ]),
    );
    expect(chunks).toEqual([
      { type: "start", messageId: "m" },
      {
        type: "tool-input-available",
        toolCallId: "q",
        toolName: "ask",
        input: request,
        dynamic: true,
        providerExecuted: true,
      },
      {
        type: "tool-output-available",
        toolCallId: "q",
        output: { ok: 1 },
        providerExecuted: true,
        dynamic: true,
      },
    ]);
    expect(state).toMatchObject({ runId: "r", messageId: "m", lastSeq: 3, settled: ["q"] });
  });

  it("maps an approval, its approval and its output onto the AI SDK's approval states", () => {
    const { chunks } = foldFrames(
      sequence([
        { kind: "approval-request", id: "c", toolName: "purge", input: {} },
        { kind: "run-parked", waitingFor: ["c"] },
        { kind: "tool-output", id: "c", output: 1 },
      ]),
    );
    expect(chunks.map((chunk) => chunk.type)).toEqual([
      "tool-input-available",
      "tool-approval-request",
      "finish",
      "tool-approval-response",
      "tool-output-available",
    ]);
    expect(chunks[3]).toEqual({ type: "tool-approval-response", approvalId: "c", approved: true });
  });

  it("carries an editable call's fields as tool metadata, and its edits on the approval as it is recorded", () => {
    const questions = [
      { id: "hours", prompt: "How far back?", input: { type: "number" as const }, defaults: ["24"] },
    ];
    const ran = { cache: "pages", hours: 6 };
    const { chunks, state } = foldFrames(
      sequence([
        start,
        {
          kind: "approval-request",
          id: "c",
          toolName: "purge",
          input: { cache: "pages", hours: 24 },
          questions,
        },
        { kind: "tool-approved", id: "c", input: ran, edited: ["hours"] },
        { kind: "tool-output", id: "c", output: { purged: "pages" } },
      ]),
    );
    expect(chunks.slice(1)).toEqual([
      {
        type: "tool-input-available",
        toolCallId: "c",
        toolName: "purge",
        input: { cache: "pages", hours: 24 },
        providerExecuted: true,
        toolMetadata: { questions },
      },
      { type: "tool-approval-request", approvalId: "c", toolCallId: "c" },
      {
        type: "tool-approval-response",
        approvalId: "c",
        approved: true,
        providerMetadata: { prepick: { input: ran, edited: ["hours"] } },
      },
      { type: "tool-output-available", toolCallId: "c", output: { purged: "pages" }, providerExecuted: true },
    ]);
    expect(state.approvals).toEqual([]);
  });

  it("maps a rejection to a denied approval with its reason", () => {
    const { chunks } = foldFrames(
      sequence([
        { kind: "approval-request", id: "c", toolName: "purge", input: {} },
        { kind: "tool-denied", id: "c", reason: "not today" },
      ]),
    );
    expect(chunks.slice(2)).toEqual([
      { type: "tool-approval-response", approvalId: "c", approved: false, reason: "not today" },
      { type: "tool-output-denied", toolCallId: "c" },
    ]);
  });

  it("maps a call cancelled with its run to a denial that nobody decided", () => {
    const { chunks, state } = foldFrames(
      sequence([
        { kind: "approval-request", id: "c", toolName: "purge", input: {} },
        { kind: "tool-denied", id: "c", reason: "cancelled", cancelled: true },
      ]),
    );
    expect(chunks.slice(2)).toEqual([{ type: "tool-output-denied", toolCallId: "c" }]);
    expect(state.approvals).toEqual([]);
  });

  it("drops replayed frames, outputs for unknown calls and second outputs", () => {
    const first = foldFrames(sequence([start, { kind: "tool-call", id: "c", toolName: "x", input: 1 }]));
    const replay = foldFrame(first.state, {
      seq: 2,
      frame: { kind: "tool-call", id: "c", toolName: "x", input: 1 },
    });
    expect(replay.chunks).toEqual([]);
    expect(replay.state).toBe(first.state);
    const rest = foldFrames(
      sequence(
        [
          { kind: "tool-output", id: "nope", output: 1 },
          { kind: "tool-error", id: "c", error: "boom" },
          { kind: "tool-output", id: "c", output: 2 },
        ],
        3,
      ),
      first.state,
    );
    expect(rest.chunks).toEqual([
      { type: "tool-output-error", toolCallId: "c", errorText: "boom", providerExecuted: true },
    ]);
  });

  it("ends a failed run with an error chunk, and tracks the run's status", () => {
    const failed = foldFrames(
      sequence([start, { kind: "run-finish", status: "failed", error: "model down" }]),
    );
    expect(failed.chunks.slice(1)).toEqual([
      { type: "error", errorText: "model down" },
      { type: "finish", finishReason: "other" },
    ]);
    expect(failed.state.status).toBe("failed");
    // A failure with a code carries the code and the error id, for the page's own sentence.
    const coded = foldFrames(
      sequence([
        start,
        {
          kind: "run-finish",
          status: "failed",
          error: "The model…",
          code: "model-timeout",
          errorId: "err-1a",
        },
      ]),
    );
    const text = (coded.chunks[1] as { errorText: string }).errorText;
    expect(text).toBe("prepick-run-failed model-timeout err-1a");
    expect(readRunFailure(new Error(text))).toEqual({ code: "model-timeout", errorId: "err-1a" });
    expect(readRunFailure(new Error("Failed to fetch"))).toBeUndefined();
    // A code from a newer server reads as internal, still a failure the page can word.
    expect(readRunFailure("prepick-run-failed quota-spent err-2")).toEqual({
      code: "internal",
      errorId: "err-2",
    });
    expect(foldFrames(sequence([start, { kind: "run-parked", waitingFor: [] }])).state.status).toBe("parked");
    expect(INITIAL_FOLD_STATE.status).toBe("running");
  });

  it("passes text, reasoning and steps through", () => {
    const { chunks } = foldFrames(
      sequence([
        { kind: "step-start", step: 0 },
        { kind: "reasoning-start", id: "r" },
        { kind: "reasoning-delta", id: "r", delta: "hm" },
        { kind: "reasoning-end", id: "r" },
        { kind: "text-start", id: "t" },
        { kind: "text-delta", id: "t", delta: "hi" },
        { kind: "text-end", id: "t" },
        { kind: "step-finish", step: 0 },
        { kind: "run-finish", status: "completed" },
      ]),
    );
    expect(chunks.map((chunk) => chunk.type)).toEqual([
      "start-step",
      "reasoning-start",
      "reasoning-delta",
      "reasoning-end",
      "text-start",
      "text-delta",
      "text-end",
      "finish-step",
      "finish",
    ]);
  });
});
