import type { AssistantContent, ModelMessage, ToolResultPart } from "ai";
import { ASK_TOOL_NAME, type Frame } from "prepick/core";
import type { UserMessage } from "../store/rows";
import { RUN_START } from "../store/runs";
import { runAsk } from "./ask-step";
import { withDeadline } from "./deadline";
import { runIntake } from "./intake-step";
import { modelName, runModelStep, type StepResult, type StepToolCall } from "./model-step";
import { ModelTimeoutError, StepLimitError } from "./run-failure";
import { stepEmitter } from "./step-emitter";
import { runTool } from "./tool-step";
import { CancelSignal, type TurnContext } from "./turn-context";

/** The most model calls one turn may make before it fails. */
export const MAX_MODEL_STEPS = 16;

/** A user message as the model reads it. */
export function userModelMessage(message: UserMessage): ModelMessage {
  return { role: "user", content: message.parts.map((part) => ({ type: "text", text: part.text })) };
}

/** The id the model gave a call: what the messages sent back to it pair results by. */
function modelCallId(call: StepToolCall): string {
  return call.modelCallId ?? call.id;
}

function assistantMessage(result: StepResult): ModelMessage {
  const content: Exclude<AssistantContent, string> = [];
  if (result.text !== "") content.push({ type: "text", text: result.text });
  for (const call of result.toolCalls) {
    content.push({
      type: "tool-call",
      toolCallId: modelCallId(call),
      toolName: call.toolName,
      input: call.input,
    });
  }
  return { role: "assistant", content };
}

/** How a turn ended: its model messages, and whether its last model call's checkpoint ended the run. */
export interface TurnEnd {
  /** The turn's model messages, for later turns' history. */
  messages: ModelMessage[];
  /** True when the turn's last step recorded the run's end itself; else the caller ends it. */
  completed: boolean;
}

const COMPLETED: Frame = { kind: "run-finish", status: "completed" };

/**
 * Replays one turn against its journal and carries it on from where the journal ends:
 * `persist:run:start`, the intake, then model calls (`stream:step-start:<n>`) and their tool
 * calls until the model answers without calling a tool: that call's checkpoint also ends the run.
 * Throws {@link ParkSignal} where a person must act, {@link CancelSignal} when cancelled.
 */
export async function runTurn(context: TurnContext): Promise<TurnEnd> {
  const { journal, run, agent } = context;
  // Recorded by the statement that started the run; a run started before that replays it here.
  await journal.step(
    RUN_START,
    async () => ({ messageId: run.messageId }),
    () => ({
      frames: [
        {
          kind: "run-start",
          runId: run.id,
          threadId: run.threadId,
          messageId: run.messageId,
          agent: run.agent,
        },
      ],
    }),
  );
  const turn: ModelMessage[] = [userModelMessage(run.userMessage)];
  turn.push(...(await runIntake(context)));
  for (let step = 0; step < MAX_MODEL_STEPS; step++) {
    // As of the last statement this run made: asking costs no read of its own.
    if (!journal.replaying && journal.cancelRequested) throw new CancelSignal();
    // Cancelled here, or stopping, since: the reason is thrown.
    if (!journal.replaying) context.abortSignal?.throwIfAborted();
    // What the model streamed: stored with the step's checkpoint, in its one statement.
    let streamed: Frame[] = [];
    const replayed = journal.replaying;
    const result = await journal.step(
      `stream:step-start:${step}`,
      async () => {
        // Read before the call's first frame, which this process's followers get at once, unstored.
        const history = await context.history();
        const emitter = stepEmitter(context);
        emitter.emit({ kind: "step-start", step });
        try {
          const { modelMs } = context.timeouts;
          const answer = await withDeadline(
            context.abortSignal,
            modelMs,
            (abortSignal) =>
              runModelStep({
                model: context.model,
                agent,
                messages: [...history, ...turn],
                runId: run.id,
                step,
                emitter,
                abortSignal,
              }),
            () => new ModelTimeoutError(modelMs),
          );
          streamed = emitter.end();
          return answer;
        } catch (error) {
          // Cut short by a stop, the call is made again elsewhere and keeps nothing of this one;
          // failing, it ends the run, and a reader keeps what it saw.
          if (context.stopping()) emitter.drop();
          else await emitter.store().catch(() => undefined);
          throw error;
        }
      },
      (recorded) => {
        const last = recorded.toolCalls.length === 0;
        return {
          frames: [...streamed, { kind: "step-finish", step }, ...(last ? [COMPLETED] : [])],
          usage: [{ step, model: modelName(context.model), ...recorded.usage }],
          ...(last ? { completes: { modelMessages: [...turn, assistantMessage(recorded)] } } : {}),
        };
      },
      { plain: true },
    );
    turn.push(assistantMessage(result));
    if (result.toolCalls.length === 0) return { messages: turn, completed: !replayed };
    const results: ToolResultPart[] = [];
    for (const call of result.toolCalls) {
      // A call's kind is decided once, in its persist checkpoint: a replay takes it from there,
      // so a run parked on an ask still settles after the deployment stopped offering ask.
      const recorded = journal.peek<{ kind?: string }>(`persist:toolcall:${call.id}`);
      const isAsk = recorded ? recorded.kind === "ask" : call.toolName === ASK_TOOL_NAME && agent.ask;
      const output = isAsk ? await runAsk(context, call) : await runTool(context, call);
      results.push({ type: "tool-result", toolCallId: modelCallId(call), toolName: call.toolName, output });
    }
    turn.push({ role: "tool", content: results });
  }
  throw new StepLimitError(MAX_MODEL_STEPS);
}
