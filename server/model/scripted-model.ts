import type {
  LanguageModelV4,
  LanguageModelV4CallOptions,
  LanguageModelV4Content,
  LanguageModelV4FinishReason,
  LanguageModelV4GenerateResult,
  LanguageModelV4StreamPart,
  LanguageModelV4StreamResult,
  LanguageModelV4Usage,
} from "@ai-sdk/provider";
import { readPrompt } from "./read-prompt";
import { ruleFor, type ScriptedReply } from "./scripted-rules";

/** The provider name the scripted model reports. */
export const SCRIPTED_PROVIDER = "prepick";

/** The model id the scripted model reports. */
export const SCRIPTED_MODEL_ID = "scripted";

/** How many deltas a text reply is streamed in, at most. */
const TEXT_DELTAS = 4;

/** One answer of the scripted model, before it is shaped as a generate result or a stream. */
export interface ScriptedTurn {
  /** The rule of the table that answered. */
  rule: string;
  /** The reply: text, or tool calls with their ids. */
  content: Array<
    | { type: "text"; id: string; text: string }
    | { type: "tool-call"; toolCallId: string; toolName: string; input: string }
  >;
  /** `stop` for text, `tool-calls` for calls. */
  finishReason: LanguageModelV4FinishReason;
  /** Token counts, estimated at four characters a token. */
  usage: LanguageModelV4Usage;
}

/** FNV-1a over the text, as eight hex digits: short, stable across processes and platforms. */
export function hashText(text: string): string {
  let hash = 0x811c9dc5;
  for (let index = 0; index < text.length; index++) {
    hash ^= text.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0).toString(16).padStart(8, "0");
}

const tokens = (characters: number) => Math.max(1, Math.ceil(characters / 4));

function usage(promptText: string, output: string): LanguageModelV4Usage {
  const input = tokens(promptText.length);
  const generated = tokens(output.length);
  return {
    inputTokens: { total: input, noCache: input, cacheRead: 0, cacheWrite: 0 },
    outputTokens: { total: generated, text: generated, reasoning: 0 },
  };
}

/**
 * Answers a prompt by the rule table (`SCRIPTED_RULES`). Deterministic: the same prompt gives the
 * same answer and the same ids. Ids are `call-<step>-<n>-<hash of the prompt>`; a thread's prompt
 * grows with every step, so ids never repeat within a thread, yet a replayed step reuses its own.
 */
export function answerPrompt(options: LanguageModelV4CallOptions): ScriptedTurn {
  const promptText = JSON.stringify(options.prompt);
  const hash = hashText(promptText);
  const view = readPrompt(options);
  const rule = ruleFor(view);
  const reply: ScriptedReply = rule.reply(view);
  if (reply.type === "text") {
    return {
      rule: rule.name,
      content: [{ type: "text", id: `text-${view.step}-${hash}`, text: reply.text }],
      finishReason: { unified: "stop", raw: "stop" },
      usage: usage(promptText, reply.text),
    };
  }
  const content = reply.calls.map((call, index) => ({
    type: "tool-call" as const,
    toolCallId: `call-${view.step}-${index}-${hash}`,
    toolName: call.toolName,
    input: JSON.stringify(call.input),
  }));
  return {
    rule: rule.name,
    content,
    finishReason: { unified: "tool-calls", raw: "tool_calls" },
    usage: usage(promptText, content.map((call) => call.toolName + call.input).join("")),
  };
}

/** Splits a text into at most {@link TEXT_DELTAS} pieces on word boundaries. */
export function splitDeltas(text: string): string[] {
  const words = text.match(/\S+\s*|\s+/g) ?? [text];
  const size = Math.max(1, Math.ceil(words.length / TEXT_DELTAS));
  const deltas: string[] = [];
  for (let start = 0; start < words.length; start += size)
    deltas.push(words.slice(start, start + size).join(""));
  return deltas;
}

function streamParts(turn: ScriptedTurn): LanguageModelV4StreamPart[] {
  const parts: LanguageModelV4StreamPart[] = [
    { type: "stream-start", warnings: [] },
    { type: "response-metadata", modelId: SCRIPTED_MODEL_ID },
  ];
  for (const item of turn.content) {
    if (item.type === "text") {
      parts.push({ type: "text-start", id: item.id });
      for (const delta of splitDeltas(item.text)) parts.push({ type: "text-delta", id: item.id, delta });
      parts.push({ type: "text-end", id: item.id });
    } else {
      parts.push({ type: "tool-input-start", id: item.toolCallId, toolName: item.toolName });
      parts.push({ type: "tool-input-delta", id: item.toolCallId, delta: item.input });
      parts.push({ type: "tool-input-end", id: item.toolCallId });
      parts.push(item);
    }
  }
  parts.push({ type: "finish", usage: turn.usage, finishReason: turn.finishReason });
  return parts;
}

/** How the scripted model behaves beyond its rules. */
export interface ScriptedModelOptions {
  /**
   * How long each answer takes to begin, in ms (default 0): a stand-in for a real model's
   * latency, so a run waits on its model as a real one does. The answer is the same.
   */
  latencyMs?: number;
}

/** One answer's latency: its timer, and its own listener of the call's signal. */
class Latency {
  private readonly timer: ReturnType<typeof setTimeout>;

  constructor(
    ms: number,
    private readonly signal: AbortSignal | undefined,
    private readonly resolve: () => void,
    private readonly reject: (reason: unknown) => void,
  ) {
    this.timer = setTimeout(elapsed, ms, this);
    signal?.addEventListener("abort", this, { once: true });
  }

  elapsed(): void {
    this.signal?.removeEventListener("abort", this);
    this.resolve();
  }

  /** The call's signal aborted. */
  handleEvent(): void {
    clearTimeout(this.timer);
    this.reject(this.signal?.reason);
  }
}

function elapsed(latency: Latency): void {
  latency.elapsed();
}

/** Waits `ms`, or fails as soon as `signal` aborts. */
function wait(ms: number, signal: AbortSignal | undefined): Promise<void> {
  if (ms <= 0) return Promise.resolve();
  if (signal?.aborted) return Promise.reject(signal.reason);
  return new Promise((resolve, reject) => {
    new Latency(ms, signal, resolve, reject);
  });
}

/** The embedded scripted model: deterministic, no network, every server path reachable. */
export class ScriptedModel implements LanguageModelV4 {
  /** The language-model interface version. */
  readonly specificationVersion = "v4";
  /** The provider name. */
  readonly provider = SCRIPTED_PROVIDER;
  /** The model id. */
  readonly modelId = SCRIPTED_MODEL_ID;
  /** The scripted model reads no URLs. */
  readonly supportedUrls = {};

  /** @param options See {@link ScriptedModelOptions}. */
  constructor(private readonly options: ScriptedModelOptions = {}) {}

  /** Answers in one piece. */
  async doGenerate(options: LanguageModelV4CallOptions): Promise<LanguageModelV4GenerateResult> {
    await wait(this.options.latencyMs ?? 0, options.abortSignal);
    const turn = answerPrompt(options);
    const content: LanguageModelV4Content[] = turn.content.map((item) =>
      item.type === "text" ? { type: "text", text: item.text } : item,
    );
    return {
      content,
      finishReason: turn.finishReason,
      usage: turn.usage,
      warnings: [],
      response: { modelId: SCRIPTED_MODEL_ID },
    };
  }

  /** Answers as a stream: text in a few deltas, a tool call's input in one. */
  async doStream(options: LanguageModelV4CallOptions): Promise<LanguageModelV4StreamResult> {
    await wait(this.options.latencyMs ?? 0, options.abortSignal);
    const parts = streamParts(answerPrompt(options));
    const signal = options.abortSignal;
    let next = 0;
    const stream = new ReadableStream<LanguageModelV4StreamPart>({
      pull(controller) {
        if (signal?.aborted) {
          controller.error(signal.reason);
          return;
        }
        const part = parts[next++];
        if (part === undefined) controller.close();
        else controller.enqueue(part);
      },
    });
    return { stream };
  }
}

/** Creates the embedded scripted model. */
export function createScriptedModel(options: ScriptedModelOptions = {}): ScriptedModel {
  return new ScriptedModel(options);
}
