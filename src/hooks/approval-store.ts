import { toToolCallFailure } from "@/lib/prepick/transport/tool-call-error";
import { approvalTransition, INITIAL_APPROVAL_STATE } from "./approval-machine";
import { createStore } from "./create-store";
import type { ApprovalBlock, ApprovalEvent, ApprovalResult, ApprovalState } from "./transcript-types";

/** How an approval block sends a decision; throw a `ToolCallError` for a typed refusal. */
export type SendDecision = (approved: boolean, reason: string | undefined) => Promise<void>;

/** What identifies the tool call an approval block is for. */
export interface ApprovalBlockInit {
  /** The tool call id. */
  id: string;
  /** The message it belongs to. */
  messageId: string;
  /** The tool's name. */
  toolName: string;
  /** The tool's input. */
  input: unknown;
  /** What the tool does, when known. */
  description?: string;
  /** Its run's opt-in deadline (ISO 8601), when it has one. */
  expiresAt?: string | undefined;
  /** Start the machine here. */
  state?: ApprovalState;
  /** What the call did, when it already ran. */
  result?: ApprovalResult;
}

/** An approval block and the one method its builder alone calls: the call's result as it arrives. */
export interface ApprovalBlockHandle extends ApprovalBlock {
  /** Records what the approved call did; listeners hear of it only when it changed. */
  setResult(result: ApprovalResult | undefined): void;
}

function sameResult(a: ApprovalResult | undefined, b: ApprovalResult | undefined): boolean {
  if (a === undefined || b === undefined) return a === b;
  if (a.status !== b.status) return false;
  if (a.status === "done" && b.status === "done") return a.output === b.output;
  if (a.status === "error" && b.status === "error") return a.errorText === b.errorText;
  return true;
}

/** An approval block with its own store and the approval state machine. */
export function createApprovalBlock(
  init: ApprovalBlockInit,
  sendDecision: SendDecision,
): ApprovalBlockHandle {
  // The machine's state and what the approved call did, told to the same listeners.
  const store = createStore({ state: init.state ?? INITIAL_APPROVAL_STATE, result: init.result });
  const dispatch = (event: ApprovalEvent) =>
    store.set((current) => {
      const state = approvalTransition(current.state, event);
      return state === current.state ? current : { ...current, state };
    });
  const run = async () => {
    const { state } = store.getSnapshot();
    if (state.status !== "submitting") return;
    const { approved, reason } = state;
    try {
      await sendDecision(approved, reason);
      dispatch({ type: "succeed" });
    } catch (error) {
      const failure = toToolCallFailure(error);
      if (failure.kind === "conflict") dispatch({ type: "conflict", approved });
      else dispatch({ type: "fail", error: failure.error });
    }
  };
  return {
    type: "approval",
    id: init.id,
    messageId: init.messageId,
    toolName: init.toolName,
    input: init.input,
    ...(init.description !== undefined ? { description: init.description } : {}),
    ...(init.expiresAt !== undefined ? { expiresAt: init.expiresAt } : {}),
    getResult: () => store.getSnapshot().result,
    setResult(result) {
      store.set((current) => (sameResult(current.result, result) ? current : { ...current, result }));
    },
    getSnapshot: () => store.getSnapshot().state,
    subscribe: store.subscribe,
    async approve() {
      dispatch({ type: "decide", approved: true });
      await run();
    },
    async reject(reason) {
      dispatch({ type: "decide", approved: false, ...(reason !== undefined ? { reason } : {}) });
      await run();
    },
    async retry() {
      dispatch({ type: "retry" });
      await run();
    },
    settle(decision) {
      dispatch({ type: "settle", ...decision });
    },
  };
}
