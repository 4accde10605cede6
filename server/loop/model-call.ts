import {
  APICallError,
  type LanguageModelV4,
  type LanguageModelV4CallOptions,
  type LanguageModelV4FunctionTool,
  type LanguageModelV4Message,
  type LanguageModelV4StreamPart,
} from "@ai-sdk/provider";
import type { LanguageModel, ModelMessage } from "ai";
import { asSchema } from "ai";
import { ASK_TOOL_DESCRIPTION, ASK_TOOL_NAME, askToolJsonSchema } from "prepick/core";
import type { AgentDefinition } from "../agents/types";
import { SCRIPTED_OPTIONS_KEY } from "../model/scripted-rules";

/** What the loop asks of a model: the agent's instructions and tools, and the conversation. */
export interface ModelCall {
  /** The model: a provider's `LanguageModelV4`. */
  model: LanguageModelV4;
  /** The agent: its system prompt and tools. */
  agent: AgentDefinition;
  /** The conversation so far, this turn included. */
  messages: readonly ModelMessage[];
  /** Aborts the call. */
  abortSignal?: AbortSignal;
}

/**
 * An agent's model as the loop calls it: a provider's `LanguageModelV4` (what every AI SDK 7
 * provider makes: `openai("gpt-4o")`, `gateway("openai/gpt-4o")`, the scripted model). Anything
 * else (a model id as a string, an older provider's model) is refused here, when the server
 * starts, naming the agent.
 */
export function callableModel(agent: Pick<AgentDefinition, "name">, model: LanguageModel): LanguageModelV4 {
  if (typeof model === "object" && model !== null && model.specificationVersion === "v4") return model;
  const got =
    typeof model === "string"
      ? `the model id ${JSON.stringify(model)}`
      : `a model of the ${String((model as { specificationVersion?: unknown }).specificationVersion)} interface`;
  throw new Error(
    `Agent "${agent.name}": its model must be a provider's LanguageModelV4 (an AI SDK 7 provider's model, ` +
      `e.g. openai("gpt-4o-mini") or gateway("openai/gpt-4o-mini")); got ${got}.`,
  );
}

const tools = new WeakMap<AgentDefinition, LanguageModelV4FunctionTool[]>();

/**
 * The tools an agent's model is offered, as the provider interface takes them: its registered
 * tools (their input schemas as JSON Schema) and `ask` when the agent's resolved `ask` is on.
 * Built once per agent: an agent's tools do not change while the server runs.
 */
export function providerToolsOf(agent: AgentDefinition): LanguageModelV4FunctionTool[] {
  let built = tools.get(agent);
  if (!built) {
    built = agent.tools.map((definition) => ({
      type: "function" as const,
      name: definition.name,
      description: definition.description,
      inputSchema: asSchema(definition.inputSchema).jsonSchema as LanguageModelV4FunctionTool["inputSchema"],
      ...(definition.keywords?.length
        ? { providerOptions: { [SCRIPTED_OPTIONS_KEY]: { keywords: definition.keywords } } }
        : {}),
    }));
    if (agent.ask) {
      built.push({
        type: "function",
        name: ASK_TOOL_NAME,
        description: ASK_TOOL_DESCRIPTION,
        inputSchema: askToolJsonSchema as LanguageModelV4FunctionTool["inputSchema"],
      });
    }
    tools.set(agent, built);
  }
  return built;
}

/**
 * The conversation as the provider interface takes it. The loop's messages are already in that
 * shape (text, tool calls with parsed input, tool results); only a user message written as a
 * plain string becomes a text part.
 */
export function providerPrompt(system: string, messages: readonly ModelMessage[]): LanguageModelV4Message[] {
  const prompt: LanguageModelV4Message[] = [{ role: "system", content: system }];
  for (const message of messages) {
    if (message.role === "system") prompt.push({ role: "system", content: message.content });
    else if (typeof message.content === "string") {
      prompt.push({ role: message.role as "user", content: [{ type: "text", text: message.content }] });
    } else prompt.push(message as LanguageModelV4Message);
  }
  return prompt;
}

// As the AI SDK's own default: two retries of a call that failed to start with an error the
// provider says is worth retrying (a rate limit, an overloaded server), 2 s then 4 s apart.
const RETRIES = 2;
const FIRST_DELAY_MS = 2_000;

function wait(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(done, ms);
    function done() {
      signal?.removeEventListener("abort", stop);
      resolve();
    }
    function stop() {
      clearTimeout(timer);
      reject(signal?.reason);
    }
    signal?.addEventListener("abort", stop, { once: true });
  });
}

/**
 * Starts one model call through the provider's `doStream`: one step, no tool execution, no
 * retries once the stream has begun. The loop already owns steps, tools and durability, so the
 * AI SDK's `streamText` layer around the same call (telemetry dispatch, result promises, stream
 * tees, callbacks) is work the loop pays for and never reads (docs/models.md, The model call).
 */
export async function startModelCall(call: ModelCall): Promise<ReadableStream<LanguageModelV4StreamPart>> {
  const options: LanguageModelV4CallOptions = {
    prompt: providerPrompt(call.agent.systemPrompt, call.messages),
    tools: providerToolsOf(call.agent),
    ...(call.abortSignal ? { abortSignal: call.abortSignal } : {}),
  };
  for (let attempt = 0; ; attempt++) {
    try {
      return (await call.model.doStream(options)).stream;
    } catch (error) {
      if (attempt >= RETRIES || !APICallError.isInstance(error) || !error.isRetryable) throw error;
      await wait(FIRST_DELAY_MS * 2 ** attempt, call.abortSignal);
    }
  }
}
