import type { ElicitationRequest, Frame } from "prepick/core";
import { settleAnswers } from "prepick/core";
import { scopeQuestion, seatsQuestion } from "../src/core/spec-examples";

const REQUEST: ElicitationRequest = {
  source: "ask",
  preamble: "Two questions before I start. I have pre-picked what I would choose, so confirming is enough.",
  questions: [scopeQuestion, seatsQuestion],
};

/** Text deltas per model step: most of a conversation's frames are text. */
const DELTAS_PER_STEP = 40;

/**
 * One long run of `total` frames (the last is `run-finish`): model steps of streamed text, each
 * followed by a tool call with its output and a question set with its outcome.
 */
export function conversationFrames(total: number): Frame[] {
  const frames: Frame[] = [
    {
      kind: "run-start",
      runId: "run-bench",
      threadId: "thread-bench",
      messageId: "msg-bench",
      agent: "bench",
    },
  ];
  const room = () => total - 1 - frames.length;
  const textStep = (step: number, deltas: number): Frame[] => [
    { kind: "step-start", step },
    { kind: "text-start", id: `text-${step}` },
    ...Array.from(
      { length: deltas },
      (_, index): Frame => ({
        kind: "text-delta",
        id: `text-${step}`,
        delta: `word${index} `,
      }),
    ),
    { kind: "text-end", id: `text-${step}` },
  ];
  let step = 0;
  // Full steps while a full one and the closing filler step still fit.
  for (; room() >= DELTAS_PER_STEP + 12; step++) {
    frames.push(
      ...textStep(step, DELTAS_PER_STEP),
      { kind: "tool-call", id: `call-${step}`, toolName: "read_status", input: { service: "api" } },
      { kind: "tool-output", id: `call-${step}`, output: { service: "api", healthy: true } },
      { kind: "elicitation", id: `ask-${step}`, request: REQUEST },
      { kind: "tool-output", id: `ask-${step}`, output: settleAnswers(REQUEST.questions, {}) },
      { kind: "step-finish", step },
    );
  }
  // A last text-only step takes up exactly the frames left.
  if (room() >= 4) frames.push(...textStep(step, room() - 4), { kind: "step-finish", step });
  frames.push({ kind: "run-finish", status: "completed" });
  return frames;
}
