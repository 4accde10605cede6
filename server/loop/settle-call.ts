import {
  type AnswerIssue,
  ASK_TOOL_NAME,
  type ElicitationOutcome,
  type ElicitationRequest,
  parseAnswers,
  settleAnswers,
  settleSkipped,
  validateAnswers,
} from "prepick/core";
import type { AgentDefinition } from "../agents/types";
import type { ToolCallStatus } from "../store/rows";
import type { PersonSettlement } from "../store/settlements";
import type { Store } from "../store/store";
import { checkApprovalAnswers } from "./approval-answers";
import type { CrashHooks } from "./crash-hooks";
import { askOutputFrames, settlementFrames, signalName } from "./settlement";
import type { Worker } from "./worker";

/** What a person does with a pending call. */
export type SettleAction = "answer" | "skip" | "approve" | "reject";

/** The status each action settles a row to. */
export const SETTLES_TO: Readonly<Record<SettleAction, ToolCallStatus>> = {
  answer: "answered",
  skip: "skipped",
  approve: "approved",
  reject: "rejected",
};

function isEmptyObject(value: unknown): boolean {
  return (
    typeof value === "object" && value !== null && !Array.isArray(value) && Object.keys(value).length === 0
  );
}

/** The longest reason a rejection may give. */
export const MAX_REASON = 2000;

/** What a call that is not the actor's, or does not exist, answers: the same for both. */
export function notFoundError(toolCallId: string): string {
  return `No tool call ${toolCallId} is waiting for you.`;
}

/** A person's request to settle a call. */
export interface SettleRequest {
  /** Who acts; must own the call's thread. */
  actorId: string;
  /** What they do. */
  action: SettleAction;
  /** The call. */
  toolCallId: string;
  /**
   * For `answer`: the answers as sent (checked here), or undefined to confirm the pre-picked ones.
   * For `approve` of an editable call: the edited fields, or undefined to approve as proposed.
   */
  answers?: unknown;
  /** For `reject`: the reason as sent (checked here). */
  reason?: unknown;
}

/** What settling came to. */
export type SettleOutcome =
  | { kind: "settled"; toolCallId: string; status: ToolCallStatus; output: unknown }
  | { kind: "not-found"; error: string }
  | { kind: "refused"; error: string; issues?: AnswerIssue[] }
  | { kind: "already-settled"; error: string; status: ToolCallStatus | undefined; output: unknown };

/** The outcome for a call settled before this request: how it was settled, or that it expired. */
function conflict(toolCallId: string, status: ToolCallStatus | undefined, output: unknown): SettleOutcome {
  return {
    kind: "already-settled",
    error:
      status === "expired"
        ? `${toolCallId} expired: its run's deadline passed before anyone decided it`
        : `${toolCallId} was already settled as ${status}`,
    status,
    output,
  };
}

/**
 * The one settle operation: the answer, skip, approval or rejection of a pending call. It checks
 * the request against the pending row (owner, kind, answers), then settles the row, records the
 * run's signal and wakes the run in one statement (`SettlementStore.settle`), claiming the run
 * for this process when it has room. Approving an editable call may carry edits: checked like
 * answers, they make the input the tool runs with, journaled with the signal.
 */
export async function settleCall(
  context: { store: Store; worker: Worker; crashHooks: CrashHooks; agents?: readonly AgentDefinition[] },
  request: SettleRequest,
): Promise<SettleOutcome> {
  const { store, worker, crashHooks } = context;
  const { action, toolCallId } = request;
  const row = await store.toolCalls.get(toolCallId);
  if (!row || row.actorId !== request.actorId) {
    return { kind: "not-found", error: notFoundError(toolCallId) };
  }
  const isAsk = row.name === ASK_TOOL_NAME;
  if ((action === "answer" || action === "skip") && !isAsk) {
    return {
      kind: "refused",
      error: `${toolCallId} is the tool "${row.name}" awaiting approval, not a question set; use /agent/tool-call/approve or /agent/tool-call/reject`,
    };
  }
  if ((action === "approve" || action === "reject") && isAsk) {
    return {
      kind: "refused",
      error: `${toolCallId} is a question set, not a tool awaiting approval; use /agent/tool-call/answer or /agent/tool-call/skip`,
    };
  }
  if (row.status !== "pending_approval") return conflict(toolCallId, row.status, row.output);
  let output: unknown = null;
  // A question set's outcome, made here.
  let outcome: ElicitationOutcome | undefined;
  let edits: PersonSettlement["edits"];
  if (isAsk) {
    const questions = (row.input as ElicitationRequest).questions;
    if (action === "skip") outcome = settleSkipped(questions);
    else {
      const parsed = parseAnswers(request.answers);
      const issues = parsed.success ? validateAnswers(questions, parsed.answers) : parsed.issues;
      if (!parsed.success || issues.length > 0) {
        return {
          kind: "refused",
          error: `The answers were refused: ${issues.map((issue) => issue.message).join("; ")}`,
          issues,
        };
      }
      outcome = settleAnswers(questions, parsed.answers);
    }
    output = outcome;
  } else if (action === "reject") {
    const { reason } = request;
    if (reason !== undefined && (typeof reason !== "string" || reason.length > MAX_REASON)) {
      return { kind: "refused", error: `reason must be a string of at most ${MAX_REASON} characters` };
    }
    output = reason === undefined ? {} : { reason };
  } else if (row.questions) {
    const checked = await checkApprovalAnswers(
      context,
      { ...row, questions: row.questions },
      request.answers,
    );
    if (!checked.ok) {
      return { kind: "refused", error: checked.error, ...(checked.issues ? { issues: checked.issues } : {}) };
    }
    output = checked.edits;
    const { edited, input } = checked.edits;
    edits = edited.length > 0 ? { edited, input } : { edited };
  } else if (request.answers !== undefined && !isEmptyObject(request.answers)) {
    return {
      kind: "refused",
      error: `${toolCallId} is the tool "${row.name}", whose input is not editable; approve it without answers`,
    };
  }
  const settlement = { status: SETTLES_TO[action], output };
  // A question set's outcome was made here by settleAnswers or settleSkipped, which the frame's
  // settleRecorded gives back unchanged: it is the frame's as it is, not made a second time.
  const frames = outcome ? askOutputFrames(toolCallId, outcome) : settlementFrames(row, settlement);
  const signal = signalName(row.runId, toolCallId);
  // The crash hooks of the signal checkpoint, which this statement may be the one to record.
  crashHooks.before(signal);
  const settled = await worker.admit(async (lease) => {
    const result = await store.settlements.settle(
      {
        callId: toolCallId,
        runId: row.runId,
        ...settlement,
        signal: { name: signal, result: settlement, frames },
        ...(edits ? { edits } : {}),
      },
      lease,
    );
    if (result.settled && result.signalled) crashHooks.after(signal);
    return result;
  });
  if (!settled.settled) {
    // Gone since it was read (another writer of the store removed it): as if it never was.
    if (!settled.row) return { kind: "not-found", error: notFoundError(toolCallId) };
    if (settled.row.status !== "pending_approval")
      return conflict(toolCallId, settled.row.status, settled.row.output);
    // Still pending yet not settled: its run's deadline passed. It expires now, never answered.
    await store.deadlines.expireDue(row.runId);
    const expired = await store.toolCalls.get(toolCallId);
    return conflict(toolCallId, "expired", expired?.status === "expired" ? expired.output : null);
  }
  return { kind: "settled", toolCallId, status: settlement.status, output };
}
