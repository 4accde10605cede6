import type { ApprovalEvent, ApprovalState } from "./transcript-types";

/** The approval machine's starting state. */
export const INITIAL_APPROVAL_STATE: ApprovalState = { status: "idle" };

function decision(approved: boolean, reason: string | undefined) {
  return reason === undefined ? { approved } : { approved, reason };
}

/**
 * The approval state machine's one transition function. Pure: an event that does not apply in
 * the current state returns the same state object.
 */
export function approvalTransition(state: ApprovalState, event: ApprovalEvent): ApprovalState {
  if (state.status === "settled") return state;
  if (event.type === "settle") {
    return { status: "settled", ...decision(event.approved, event.reason), conflict: false };
  }
  switch (state.status) {
    case "idle":
      return event.type === "decide"
        ? { status: "submitting", ...decision(event.approved, event.reason) }
        : state;
    case "submitting":
      switch (event.type) {
        case "succeed":
          return { status: "settled", ...decision(state.approved, state.reason), conflict: false };
        case "conflict":
          return { status: "settled", approved: event.approved, conflict: true };
        case "refuse":
          return { status: "idle" };
        case "fail":
          return { status: "failed", ...decision(state.approved, state.reason), error: event.error };
        default:
          return state;
      }
    case "failed":
      if (event.type === "retry") return { status: "submitting", ...decision(state.approved, state.reason) };
      if (event.type === "decide") return { status: "submitting", ...decision(event.approved, event.reason) };
      if (event.type === "dismiss") return { status: "idle" };
      return state;
  }
}
