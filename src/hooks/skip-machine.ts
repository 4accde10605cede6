import type { SkipEvent, SkipState } from "./transcript-types";

/** The skip machine's starting state. */
export const INITIAL_SKIP_STATE: SkipState = { status: "idle" };

/**
 * The skip state machine's one transition function. Pure: an event that does not apply in the
 * current state returns the same state object.
 */
export function skipTransition(state: SkipState, event: SkipEvent): SkipState {
  if (state.status === "settled") return state;
  if (event.type === "settle") return { status: "settled", outcome: event.outcome, conflict: false };
  switch (state.status) {
    case "idle":
      return event.type === "skip" ? { status: "submitting" } : state;
    case "submitting":
      switch (event.type) {
        case "succeed":
          return { status: "settled", outcome: event.outcome, conflict: false };
        case "conflict":
          return { status: "settled", outcome: event.outcome, conflict: true };
        case "reject":
          return { status: "rejected", error: event.error };
        case "fail":
          return { status: "failed", error: event.error };
        default:
          return state;
      }
    case "rejected":
    case "failed":
      if (event.type === "retry" || event.type === "skip") return { status: "submitting" };
      if (event.type === "dismiss") return { status: "idle" };
      return state;
  }
}
