import type { LanguageModelV4 } from "@ai-sdk/provider";
import type { LanguageModel, ModelMessage } from "ai";
import type { Frame } from "prepick/core";
import type { AgentDefinition } from "../agents/types";
import { inJsonbOrder } from "../store/json";
import { startModelCall } from "./model-call";
import { ModelCallError } from "./run-failure";

/** One tool call a model step made, with the id the loop uses for it. */
export interface StepToolCall {
  /** The server's id for the call, unique across the store: see {@link toolCallId}. */
  id: string;
  /**
   * The model's own id, unique only within its response (some servers answer `call_0` every
   * turn): what the messages sent back to the model carry. Absent in steps journaled before it
   * was kept, whose `id` was the model's.
   */
  modelCallId?: string;
  /** The tool the model called. */
  toolName: string;
  /** The input as the model gave it (not yet validated). */
  input: unknown;
}

/** What one model call produced; recorded as the result of `stream:step-start:<n>`. */
export interface StepResult {
  /** The text the model wrote, in order. */
  text: string;
  /** The tool calls, in order. */
  toolCalls: StepToolCall[];
  /** Why the model stopped. */
  finishReason: string;
  /** Token counts, when the model reported them. */
  usage: { input?: number; output?: number; total?: number };
}

/** What a model step needs from its surroundings. */
export interface ModelStepOptions {
  /** The model: a provider's `LanguageModelV4` (checked when the server starts). */
  model: LanguageModelV4;
  /** The agent: its system prompt and tools. */
  agent: AgentDefinition;
  /** The conversation so far, this turn included. */
  messages: ModelMessage[];
  /** The run the call belongs to; namespaces the tool-call ids. */
  runId: string;
  /** Zero-based index of the model call within the turn; namespaces the text part ids. */
  step: number;
  /** Streams each frame as it happens. */
  emitter: { emit(frame: Frame): void };
  /** Aborts the model call. */
  abortSignal?: AbortSignal;
}

/**
 * The server's id for the `index`-th tool call of model call `step` of run `runId`:
 * `call-<step>-<index>-<runId>`. Unique across runs, threads and turns whatever ids the model
 * gives, and the same on every replay, since the step's journaled result holds it.
 */
export function toolCallId(runId: string, step: number, index: number): string {
  return `call-${step}-${index}-${runId}`;
}

/** The name usage rows record for a model. */
export function modelName(model: LanguageModel): string {
  return typeof model === "string" ? model : `${model.provider}:${model.modelId}`;
}

/** A tool call's input as the model wrote it (JSON text), parsed; the text itself when it is not JSON. */
function parsedInput(text: string): unknown {
  if (text.trim() === "") return {};
  try {
    return JSON.parse(text) as unknown;
  } catch {
    // The tool's own check refuses it, and the model is told why (see tool-step.ts, ask-step.ts).
    return text;
  }
}

/** Why a cut-short call is not the model's answer: the replay makes it again. */
function aborted(step: number): Error {
  return new Error(`Model call ${step} was aborted before it finished.`);
}

/**
 * One model call through the provider's `doStream` (`startModelCall`: a single step, no tool
 * execution): streams text and reasoning frames as they come and returns the text and tool calls
 * for the journal. The result is plain JSON data, in the order a replay reads it back. A
 * provider's failure (refusing the call, failing its stream, or an error part) throws
 * {@link ModelCallError}, so it can be told from a failure to store what the call streamed.
 */
export async function runModelStep(options: ModelStepOptions): Promise<StepResult> {
  const { step, emitter } = options;
  let stream: Awaited<ReturnType<typeof startModelCall>>;
  try {
    stream = await startModelCall({
      model: options.model,
      agent: options.agent,
      messages: options.messages,
      ...(options.abortSignal ? { abortSignal: options.abortSignal } : {}),
    });
  } catch (error) {
    if (options.abortSignal?.aborted) throw aborted(step);
    throw new ModelCallError(error);
  }
  let text = "";
  const toolCalls: StepToolCall[] = [];
  let finishReason = "unknown";
  let usage: StepResult["usage"] = {};
  const reader = stream.getReader();
  try {
    for (let next = await reader.read(); !next.done; next = await reader.read()) {
      const part = next.value;
      switch (part.type) {
        case "text-start":
          emitter.emit({ kind: "text-start", id: `${step}-${part.id}` });
          break;
        case "text-delta":
          text += part.delta;
          emitter.emit({ kind: "text-delta", id: `${step}-${part.id}`, delta: part.delta });
          break;
        case "text-end":
          emitter.emit({ kind: "text-end", id: `${step}-${part.id}` });
          break;
        case "reasoning-start":
          emitter.emit({ kind: "reasoning-start", id: `${step}-${part.id}` });
          break;
        case "reasoning-delta":
          emitter.emit({ kind: "reasoning-delta", id: `${step}-${part.id}`, delta: part.delta });
          break;
        case "reasoning-end":
          emitter.emit({ kind: "reasoning-end", id: `${step}-${part.id}` });
          break;
        case "tool-call":
          toolCalls.push({
            id: toolCallId(options.runId, step, toolCalls.length),
            modelCallId: part.toolCallId,
            toolName: part.toolName,
            // As a replay reads it back from the journal: the model sees the same input either way.
            input: inJsonbOrder(parsedInput(part.input)),
          });
          break;
        case "finish": {
          finishReason = part.finishReason.unified;
          const input = part.usage.inputTokens.total;
          const output = part.usage.outputTokens.total;
          usage = {
            ...(input !== undefined ? { input } : {}),
            ...(output !== undefined ? { output } : {}),
            ...(input !== undefined && output !== undefined ? { total: input + output } : {}),
          };
          break;
        }
        case "error":
          throw new ModelCallError(part.error);
        default:
          break;
      }
    }
  } catch (error) {
    // A cut-short call must not be journaled as the model's answer: the replay makes it again.
    if (options.abortSignal?.aborted) throw aborted(step);
    throw error instanceof ModelCallError ? error : new ModelCallError(error);
  } finally {
    reader.releaseLock();
  }
  if (options.abortSignal?.aborted) throw aborted(step);
  return { text, toolCalls, finishReason, usage };
}
