import type { ModelMessage } from "ai";
import { ASK_TOOL_NAME, type ElicitationRequest, intakeRequest, settleRecorded } from "prepick/core";
import { askExchange } from "./ask-messages";
import { awaitSettlement } from "./settlement";
import { expiryOf, type TurnContext } from "./turn-context";

/** The verdict `intake:ask` records: whether this turn asked, and what. */
interface IntakeVerdict {
  asked: boolean;
  request?: ElicitationRequest;
}

/**
 * Runs the agent's intake before the turn's first model call: no model call, no usage row. The
 * verdict comes out of `intake:ask` rather than being recomputed on replay, because by then the
 * thread already holds this very intake. Returns the messages the model reads (the intake as an
 * `ask` call and its outcome), or none when the turn did not ask.
 */
export async function runIntake(context: TurnContext): Promise<ModelMessage[]> {
  const { agent, journal, store, run } = context;
  const intake = agent.intake;
  if (!intake) return [];
  const callId = `intake-${run.id}`;
  const verdict = await journal.step<IntakeVerdict>(
    "intake:ask",
    async () => {
      const asked =
        intake.when === "every-turn" || !(await store.toolCalls.threadWasAsked(run.threadId, run.id));
      return asked ? { asked, request: intakeRequest(intake) } : { asked };
    },
    (result) =>
      result.asked && result.request
        ? {
            newCalls: [
              {
                id: callId,
                threadId: run.threadId,
                actorId: run.actorId,
                name: ASK_TOOL_NAME,
                status: "pending_approval",
                input: result.request,
              },
            ],
            frames: [{ kind: "elicitation", id: callId, request: result.request, ...expiryOf(run) }],
          }
        : {},
  );
  if (!verdict.asked || !verdict.request) return [];
  // The outcome's frame streamed with the signal; this step records what the model reads.
  const settlement = await awaitSettlement(context, callId);
  const questions = verdict.request.questions;
  // Computed from the signal the settlement journaled: recorded with the model call's checkpoint.
  const outcome = await journal.derive("intake:answers", async () =>
    settleRecorded(questions, settlement.output, settlement.status === "skipped"),
  );
  return askExchange(callId, verdict.request, outcome);
}
