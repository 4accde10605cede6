import { PendingCallsStore } from "@/hooks/pending-calls-store";
import type { PendingCall } from "@/lib/prepick/core/inbox";
import { settleAnswers, settleSkipped } from "@/lib/prepick/core/outcome";
import { bookingIntake, specIntake } from "@/lib/prepick/core/spec-examples";
import type { ToolCallResponse, ToolCallResult } from "@/lib/prepick/transport/tool-call-client";

let asked = 0;

/** A waiting question set: the spec's refactorer intake, or the booking one. */
export function waitingQuestions(
  threadId: string,
  agent = "refactorer",
  id = `intake-run-${++asked}`,
): PendingCall {
  const request =
    agent === "booking"
      ? { source: "intake" as const, questions: [...bookingIntake.questions] }
      : { source: "intake" as const, preamble: specIntake.preamble, questions: [...specIntake.questions] };
  return {
    id,
    runId: `run-${id}`,
    messageId: `message-${id}`,
    threadId,
    agent,
    name: "ask",
    toolType: "action",
    status: "pending_approval",
    input: request,
    askedAt: new Date(Date.UTC(2026, 0, 5, 10, asked)).toISOString(),
    posted: { kind: "elicitation", id, request },
  };
}

/** A waiting approval of the operator's `purge_cache`. */
export function waitingApproval(threadId: string, id = `call-0-0-run-${++asked}`): PendingCall {
  return {
    id,
    runId: `run-${id}`,
    messageId: `message-${id}`,
    threadId,
    agent: "operator",
    name: "purge_cache",
    toolType: "action",
    status: "pending_approval",
    input: { region: "eu-west" },
    askedAt: new Date(Date.UTC(2026, 0, 5, 10, asked)).toISOString(),
    posted: { kind: "approval-request", id, toolName: "purge_cache", input: { region: "eu-west" } },
  };
}

/**
 * An inbox holding `calls`, live, whose answers, skips and decisions settle in the page as a
 * server would answer them (after `delayMs`).
 */
export function inboxOf(calls: readonly PendingCall[], delayMs = 0): PendingCallsStore {
  const byId = new Map(calls.map((call) => [call.id, call]));
  const ok = async (toolCallId: string, status: string, output: unknown): Promise<ToolCallResponse> => {
    await new Promise((resolve) => setTimeout(resolve, delayMs));
    const result: ToolCallResult = { toolCallId, status, output };
    return { ok: true, result };
  };
  const questions = (id: string) => {
    const posted = byId.get(id)?.posted;
    return posted?.kind === "elicitation" ? posted.request.questions : [];
  };
  const store = new PendingCallsStore({
    answer: (id, answers) => ok(id, "answered", settleAnswers(questions(id), answers ?? {})),
    skip: (id) => ok(id, "skipped", settleSkipped(questions(id))),
    approve: (id) => ok(id, "approved", null),
    reject: (id, reason) => ok(id, "rejected", { reason }),
  });
  for (const call of calls) store.apply({ kind: "waiting", call }, true);
  store.apply({ kind: "synced" }, true);
  return store;
}
