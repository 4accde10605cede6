import {
  type ApprovalEdits,
  ASK_TOOL_NAME,
  type ElicitationOutcome,
  type ElicitationRequest,
  type Frame,
  readApprovalEdits,
  settleRecorded,
} from "prepick/core";
import type { OwnedToolCall, ToolCallStatus } from "../store/rows";
import { CancelSignal, ParkSignal, type TurnContext } from "./turn-context";

/** How a person settled a pending row, as its `signal:tool:` checkpoint records it. */
export interface Settlement {
  /** The row's status after settling. */
  status: ToolCallStatus;
  /** The row's output: the outcome of a question set, the reason of a rejection. */
  output: unknown;
}

/** The name of the checkpoint that records how a person settled `callId` of `runId`. */
export function signalName(runId: string, callId: string): string {
  return `signal:tool:${runId}:${callId}`;
}

/**
 * The edits an approval's settlement holds, when it is one of an editable call: the input the
 * tool runs with and the fields changed. Undefined for any other settlement, or one whose output
 * (settled straight in the store) does not have that shape: the call then runs as proposed.
 */
export function approvalEditsOf(settlement: Settlement): ApprovalEdits | undefined {
  return settlement.status === "approved" ? readApprovalEdits(settlement.output) : undefined;
}

/** The frames a settled question set writes: its outcome, as the model will read it. */
export function askOutputFrames(callId: string, outcome: ElicitationOutcome): Frame[] {
  return [{ kind: "tool-output", id: callId, output: outcome }];
}

/**
 * The frames a settlement streams with its `signal:tool:` checkpoint, whoever records it (the
 * person's request when the run was parked on the call, the loop otherwise), so the stream is
 * the same either way: a question set's outcome as `tool-output`, a rejection as `tool-denied`,
 * the approval of an editable call as `tool-approved` with the input it runs with and the fields
 * edited. Any other approval streams nothing of its own; the tool's result follows when it has run.
 */
export function settlementFrames(
  call: Pick<OwnedToolCall, "id" | "name" | "input" | "questions">,
  settlement: Settlement,
): Frame[] {
  if (call.name === ASK_TOOL_NAME) {
    const questions = (call.input as ElicitationRequest).questions;
    return askOutputFrames(
      call.id,
      settleRecorded(questions, settlement.output, settlement.status === "skipped"),
    );
  }
  if (settlement.status === "rejected") {
    const reason = (settlement.output as { reason?: string } | null)?.reason;
    return [{ kind: "tool-denied", id: call.id, ...(reason !== undefined ? { reason } : {}) }];
  }
  if (!call.questions || settlement.status !== "approved") return [];
  // An approval settled straight in the store, without edits, runs the proposal as it stands.
  const edits = approvalEditsOf(settlement) ?? { input: call.input as Record<string, unknown>, edited: [] };
  return [{ kind: "tool-approved", id: call.id, ...edits }];
}

/**
 * The `signal:tool:<runId>:<callId>` step: the settlement a person made, or a park when the row
 * still waits. Recorded by the person's request when the run was parked on the call (a replay
 * then finds it journaled); otherwise here, from the settled row, with the same frames.
 */
export function awaitSettlement(context: TurnContext, callId: string): Promise<Settlement> {
  const { journal, store, run } = context;
  let call: OwnedToolCall | undefined;
  return journal.step(
    signalName(run.id, callId),
    async () => {
      call = await store.toolCalls.get(callId);
      if (!call) throw new Error(`The tool call ${callId} of run ${run.id} has no row.`);
      if (call.status === "pending_approval") throw new ParkSignal(callId);
      if (call.status === "cancelled") throw new CancelSignal();
      return { status: call.status, output: call.output };
    },
    (settlement) => ({ frames: call ? settlementFrames(call, settlement) : [] }),
  );
}
