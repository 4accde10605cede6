import { type LanguageModel, type ModelMessage, streamText } from "ai";
import type { Frame } from "prepick/core";
import { modelToolsOf } from "../agents/model-tools";
import type { AgentDefinition } from "../agents/types";
import { inJsonbOrder } from "../store/json";

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
  /** The model. */
  model: LanguageModel;
  /** The agent: its system prompt and tools. */
  agent: AgentDefinition;
  /** The conversation so far, this turn included. */
  messages: ModelMessage[];
  /** The run the call belongs to; namespaces the tool-call ids. */
  runId: string;
  /** Zero-based index of the model call within the turn; namespaces the text part ids. */
  step: number;
  /** Streams a frame as it happens. */
  emit: (frame: Frame) => void;
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

/**
 * One model call through the AI SDK (`streamText`, a single step, no tool execution): streams
 * text and reasoning frames as they come and returns the text and tool calls for the journal.
 */
export async function runModelStep(options: ModelStepOptions): Promise<StepResult> {
  const { step, emit } = options;
  const result = streamText({
    model: options.model,
    system: options.agent.systemPrompt,
    messages: options.messages,
    tools: modelToolsOf(options.agent),
    ...(options.abortSignal ? { abortSignal: options.abortSignal } : {}),
  });
  let text = "";
  const toolCalls: StepToolCall[] = [];
  let finishReason = "unknown";
  let usage: StepResult["usage"] = {};
  const partId = (id: string) => `${step}-${id}`;
  for await (const part of result.fullStream) {
    switch (part.type) {
      case "text-start":
        emit({ kind: "text-start", id: partId(part.id) });
        break;
      case "text-delta":
        text += part.text;
        emit({ kind: "text-delta", id: partId(part.id), delta: part.text });
        break;
      case "text-end":
        emit({ kind: "text-end", id: partId(part.id) });
        break;
      case "reasoning-start":
        emit({ kind: "reasoning-start", id: partId(part.id) });
        break;
      case "reasoning-delta":
        emit({ kind: "reasoning-delta", id: partId(part.id), delta: part.text });
        break;
      case "reasoning-end":
        emit({ kind: "reasoning-end", id: partId(part.id) });
        break;
      case "tool-call":
        toolCalls.push({
          id: toolCallId(options.runId, step, toolCalls.length),
          modelCallId: part.toolCallId,
          toolName: part.toolName,
          // As a replay reads it back from the journal: the model sees the same input either way.
          input: inJsonbOrder(part.input ?? null),
        });
        break;
      case "finish-step":
        finishReason = part.finishReason;
        usage = {
          ...(part.usage.inputTokens !== undefined ? { input: part.usage.inputTokens } : {}),
          ...(part.usage.outputTokens !== undefined ? { output: part.usage.outputTokens } : {}),
          ...(part.usage.totalTokens !== undefined ? { total: part.usage.totalTokens } : {}),
        };
        break;
      case "error":
        throw part.error instanceof Error ? part.error : new Error(String(part.error));
      case "abort":
        // A cut-short call must not be journaled as the model's answer: the replay makes it again.
        throw new Error(`Model call ${step} was aborted before it finished.`);
      default:
        break;
    }
  }
  if (options.abortSignal?.aborted) throw new Error(`Model call ${step} was aborted before it finished.`);
  return { text, toolCalls, finishReason, usage };
}
