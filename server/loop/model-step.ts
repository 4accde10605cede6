import { type LanguageModel, type ModelMessage, streamText } from "ai";
import type { Frame } from "prepick/core";
import { modelToolsOf } from "../agents/model-tools";
import type { AgentDefinition } from "../agents/types";
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
  emit: (frame: Frame) => Promise<void>;
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
 * The stream's parts; what the provider throws comes out as a {@link ModelCallError}, so it can
 * be told from a failure to store what the call streamed.
 */
async function* partsOf<T>(stream: AsyncIterable<T>): AsyncGenerator<T> {
  const iterator = stream[Symbol.asyncIterator]();
  for (;;) {
    let next: IteratorResult<T>;
    try {
      next = await iterator.next();
    } catch (error) {
      throw new ModelCallError(error);
    }
    if (next.done) return;
    yield next.value;
  }
}

/**
 * One model call through the AI SDK (`streamText`, a single step, no tool execution): streams
 * text and reasoning frames as they come and returns the text and tool calls for the journal.
 * A provider's failure throws {@link ModelCallError}.
 */
export async function runModelStep(options: ModelStepOptions): Promise<StepResult> {
  const { step, emit } = options;
  const result = streamText({
    model: options.model,
    system: options.agent.systemPrompt,
    messages: options.messages,
    tools: modelToolsOf(options.agent),
    ...(options.abortSignal ? { abortSignal: options.abortSignal } : {}),
    // The SDK's default writes the provider's error to the console as it is, newlines and all;
    // the failure reaches the loop as an `error` part and the loop logs it, escaped, once.
    onError: () => undefined,
  });
  let text = "";
  const toolCalls: StepToolCall[] = [];
  let finishReason = "unknown";
  let usage: StepResult["usage"] = {};
  const partId = (id: string) => `${step}-${id}`;
  for await (const part of partsOf(result.fullStream)) {
    switch (part.type) {
      case "text-start":
        await emit({ kind: "text-start", id: partId(part.id) });
        break;
      case "text-delta":
        text += part.text;
        await emit({ kind: "text-delta", id: partId(part.id), delta: part.text });
        break;
      case "text-end":
        await emit({ kind: "text-end", id: partId(part.id) });
        break;
      case "reasoning-start":
        await emit({ kind: "reasoning-start", id: partId(part.id) });
        break;
      case "reasoning-delta":
        await emit({ kind: "reasoning-delta", id: partId(part.id), delta: part.text });
        break;
      case "reasoning-end":
        await emit({ kind: "reasoning-end", id: partId(part.id) });
        break;
      case "tool-call":
        toolCalls.push({
          id: toolCallId(options.runId, step, toolCalls.length),
          modelCallId: part.toolCallId,
          toolName: part.toolName,
          input: part.input ?? null,
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
        throw new ModelCallError(part.error);
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
