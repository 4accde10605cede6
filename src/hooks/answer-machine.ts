import type { AnswerEvent, AnswerState } from "./transcript-types";

/** The answer machine's starting state. */
export const INITIAL_ANSWER_STATE: AnswerState = { status: "idle" };

/**
 * The answer state machine's one transition function. Pure: an event that does not apply in the
 * current state returns the same state object, so callers can compare by identity.
 */
export function answerTransition(state: AnswerState, event: AnswerEvent): AnswerState {
  if (state.status === "settled") return state;
  if (event.type === "settle") return { status: "settled", outcome: event.outcome, conflict: false };
  switch (state.status) {
    case "idle":
      return event.type === "submit" ? { status: "submitting", answers: event.answers } : state;
    case "submitting":
      switch (event.type) {
        case "succeed":
          return { status: "settled", outcome: event.outcome, conflict: false };
        case "conflict":
          return { status: "settled", outcome: event.outcome, conflict: true };
        case "reject":
          return { status: "rejected", error: event.error, issues: event.issues };
        case "fail":
          return { status: "failed", error: event.error, answers: state.answers };
        default:
          return state;
      }
    case "rejected":
      if (event.type === "edit") return { status: "idle" };
      if (event.type === "submit") return { status: "submitting", answers: event.answers };
      return state;
    case "failed":
      if (event.type === "retry") return { status: "submitting", answers: state.answers };
      if (event.type === "edit") return { status: "idle" };
      if (event.type === "submit") return { status: "submitting", answers: event.answers };
      return state;
  }
}
