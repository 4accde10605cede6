import type { Answers, ElicitationOutcome } from "@/lib/prepick/core/question";
import type { ToolCallActions, ToolCallResponse } from "@/lib/prepick/transport/tool-call-client";
import { ToolCallError } from "@/lib/prepick/transport/tool-call-error";
import type { SendDecision } from "./approval-store";
import { readOutcome } from "./describe-outcome";

/** How a block settles a call that runs on the agent's side: what its store sends. */
export interface ServerSettle {
  /** Answers the question set; resolves with the server's outcome. */
  onAnswer: (answers: Answers) => Promise<ElicitationOutcome>;
  /** Skips the question set; resolves with the server's outcome. */
  onSkip: () => Promise<ElicitationOutcome>;
  /** Approves or rejects the call. */
  sendDecision: SendDecision;
}

/**
 * The one way the page settles a call that runs on the agent's side (a question set, an
 * approval): through the client, which answers with the settled output or a typed failure. A
 * failure is thrown as a `ToolCallError`, for the block's machine to read; `settled` runs once the
 * call waits no more, on a 200 or on a 409 (someone else settled it first), so the transcript
 * follows the run on and the inbox lets the call go.
 */
export function settleThrough(
  client: ToolCallActions,
  toolCallId: string,
  settled: () => void,
): ServerSettle {
  const send = async (request: () => Promise<ToolCallResponse>) => {
    const response = await request();
    if (response.ok || response.failure.kind === "conflict") settled();
    if (!response.ok) throw new ToolCallError(response.failure);
    return response.result;
  };
  const outcome = async (request: () => Promise<ToolCallResponse>) => {
    const read = readOutcome((await send(request)).output);
    if (!read) throw new Error(`The server settled ${toolCallId} without an outcome.`);
    return read;
  };
  return {
    onAnswer: (answers) => outcome(() => client.answer(toolCallId, answers)),
    onSkip: () => outcome(() => client.skip(toolCallId)),
    async sendDecision(approved, reason, answers) {
      const result = await send(() =>
        approved ? client.approve(toolCallId, answers) : client.reject(toolCallId, reason),
      );
      return result.output;
    },
  };
}
