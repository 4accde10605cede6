import type { ToolResultPart } from "ai";
import {
  ASK_TOOL_NAME,
  describeAskIssues,
  type ElicitationRequest,
  parseAskInput,
  settleRecorded,
} from "prepick/core";
import type { StepToolCall } from "./model-step";
import { awaitSettlement } from "./settlement";
import { expiryOf, type TurnContext } from "./turn-context";

/** What `persist:toolcall:<callId>` records for an `ask`: its kind, and the request or the refusal. */
interface AskRecord {
  kind: "ask";
  request?: ElicitationRequest;
  error?: string;
}

/**
 * Settles a model's `ask` call against a person. A malformed set goes back to the model as an
 * ordinary tool failure carrying the issues, and nobody is parked. A valid one becomes a pending
 * `ask` row and an elicitation frame, waits on the same signal an approval waits on, and ends as
 * `persist:toolexec` (answered) or `persist:toolreject` (skipped) with the tool-output frame.
 */
export async function runAsk(context: TurnContext, call: StepToolCall): Promise<ToolResultPart["output"]> {
  const { journal, run } = context;
  const record = await journal.step<AskRecord>(
    `persist:toolcall:${call.id}`,
    async () => {
      const parsed = parseAskInput(call.input);
      return parsed.success
        ? { kind: "ask", request: parsed.request }
        : { kind: "ask", error: describeAskIssues(parsed.issues) };
    },
    (result) =>
      result.request
        ? {
            newCalls: [
              {
                id: call.id,
                threadId: run.threadId,
                actorId: run.actorId,
                name: ASK_TOOL_NAME,
                status: "pending_approval",
                input: result.request,
              },
            ],
          }
        : {
            frames: [
              { kind: "tool-call", id: call.id, toolName: ASK_TOOL_NAME, input: call.input },
              { kind: "tool-error", id: call.id, error: result.error ?? "" },
            ],
          },
  );
  if (!record.request) return { type: "error-text", value: record.error ?? "The questions were not asked." };
  const request = record.request;
  await journal.step(
    `stream:elicitation:${call.id}`,
    async () => ({ posted: true }),
    () => ({ frames: [{ kind: "elicitation", id: call.id, request, ...expiryOf(run) }] }),
  );
  // The outcome's frame streamed with the signal; this step records what the model reads.
  const settlement = await awaitSettlement(context, call.id);
  const name = settlement.status === "skipped" ? "persist:toolreject" : "persist:toolexec";
  const outcome = await journal.step(`${name}:${call.id}`, async () =>
    settleRecorded(request.questions, settlement.output, settlement.status === "skipped"),
  );
  return { type: "text", value: outcome.summary };
}
