import type { ModelMessage } from "ai";
import { ASK_TOOL_NAME, type ElicitationOutcome, type ElicitationRequest } from "prepick/core";

/**
 * An intake as the model reads it: the question set as an `ask` call of the assistant, and the
 * outcome's summary as its result, exactly as a model-made `ask` reads once settled.
 */
export function askExchange(
  callId: string,
  request: ElicitationRequest,
  outcome: ElicitationOutcome,
): ModelMessage[] {
  return [
    {
      role: "assistant",
      content: [{ type: "tool-call", toolCallId: callId, toolName: ASK_TOOL_NAME, input: request }],
    },
    {
      role: "tool",
      content: [
        {
          type: "tool-result",
          toolCallId: callId,
          toolName: ASK_TOOL_NAME,
          output: { type: "text", value: outcome.summary },
        },
      ],
    },
  ];
}
