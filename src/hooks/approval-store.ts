import { toToolCallFailure } from "@/lib/prepick/transport/tool-call-error";
import { approvalTransition, INITIAL_APPROVAL_STATE } from "./approval-machine";
import type { ApprovalBlock, ApprovalEvent, ApprovalState } from "./transcript-types";

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
  /** Start the machine here. */
  state?: ApprovalState;
}

/** An approval block with its own store and the approval state machine. */
export function createApprovalBlock(init: ApprovalBlockInit, sendDecision: SendDecision): ApprovalBlock {
  let state: ApprovalState = init.state ?? INITIAL_APPROVAL_STATE;
  const listeners = new Set<() => void>();
  const dispatch = (event: ApprovalEvent) => {
    const next = approvalTransition(state, event);
    if (next === state) return;
    state = next;
    for (const listener of listeners) listener();
  };
  const run = async () => {
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
    getSnapshot: () => state,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
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
