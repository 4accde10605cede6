import type {
  LanguageModelV4CallOptions,
  LanguageModelV4FunctionTool,
  LanguageModelV4Message,
  LanguageModelV4ToolResultPart,
} from "@ai-sdk/provider";
import { ANSWERED_HEADING, ASK_TOOL_NAME, SKIPPED_HEADING } from "prepick/core";

/** A tool result, read into what the scripted model needs to know about it. */
export interface ReadResult {
  /** The call it answers. */
  toolCallId: string;
  /** The tool that ran. */
  toolName: string;
  /** `ok` for an output, `error` for a failure, `denied` when a person rejected the call. */
  status: "ok" | "error" | "denied";
  /** The output (a JSON value or text), the error text, or the rejection's reason. */
  value: unknown;
}

/** What the scripted model reads out of one call's prompt. */
export interface PromptView {
  /** Every system message, joined. */
  system: string;
  /** The text of the last user message; empty when there is none. */
  request: string;
  /** The messages after the last user message: this turn's model calls and tool results. */
  turn: LanguageModelV4Message[];
  /** Zero-based index of this model call within the turn. */
  step: number;
  /** The results in the prompt's last message, when it is a tool message. */
  lastResults: ReadResult[];
  /** The function tools offered to this call, `ask` included when offered. */
  tools: LanguageModelV4FunctionTool[];
  /** Whether the `ask` tool is offered. */
  askOffered: boolean;
  /**
   * How many `ask` calls the model made this turn. An intake (its call id is `intake-<runId>`)
   * is the agent's own questions, not the model's, and does not count.
   */
  askCalls: number;
  /** How many of this turn's `ask` calls came back as failures. */
  askErrors: number;
  /** The names of the tools this turn already called. */
  called: Set<string>;
  /** The latest question-set summary in the prompt (system, tool results or text), if any. */
  summary: string | undefined;
  /** How the caller constrains tool use. */
  toolChoice: LanguageModelV4CallOptions["toolChoice"];
}

function readOutput(part: LanguageModelV4ToolResultPart): ReadResult {
  const base = { toolCallId: part.toolCallId, toolName: part.toolName };
  const output = part.output;
  switch (output.type) {
    case "text":
    case "json":
      return { ...base, status: "ok", value: output.value };
    case "error-text":
    case "error-json":
      return { ...base, status: "error", value: output.value };
    case "execution-denied":
      return { ...base, status: "denied", value: output.reason };
    case "content":
      return {
        ...base,
        status: "ok",
        value: output.value.map((item) => (item.type === "text" ? item.text : "")).join(""),
      };
  }
}

const SUMMARY_START = [ANSWERED_HEADING, SKIPPED_HEADING];

/** The question-set summary a text or an outcome holds, if it holds one. */
export function summaryIn(value: unknown): string | undefined {
  if (typeof value === "string") {
    const at = Math.max(...SUMMARY_START.map((heading) => value.lastIndexOf(heading)));
    return at >= 0 ? value.slice(at).trim() : undefined;
  }
  if (value !== null && typeof value === "object" && "summary" in value) {
    return summaryIn((value as { summary: unknown }).summary);
  }
  return undefined;
}

/** Whether an `ask` result is a failure: an error output, or the "not asked" text of core. */
export function isAskFailure(result: ReadResult): boolean {
  if (result.status === "error") return true;
  return typeof result.value === "string" && result.value.startsWith("The questions were not asked");
}

function textOf(message: LanguageModelV4Message): string {
  if (message.role === "system") return message.content;
  return message.content
    .map((part) => (part.type === "text" ? part.text : ""))
    .filter((text) => text !== "")
    .join("\n");
}

/** Reads one call's options into a {@link PromptView}. */
export function readPrompt(options: LanguageModelV4CallOptions): PromptView {
  const prompt = options.prompt;
  const lastUser = prompt.findLastIndex((message) => message.role === "user");
  const turn = prompt.slice(lastUser + 1);
  const results = new Map<string, ReadResult>();
  let summary: string | undefined;
  for (const message of prompt) {
    summary = summaryIn(textOf(message)) ?? summary;
    if (message.role !== "tool" && message.role !== "assistant") continue;
    for (const part of message.content) {
      if (part.type !== "tool-result") continue;
      const result = readOutput(part);
      results.set(part.toolCallId, result);
      if (result.status === "ok") summary = summaryIn(result.value) ?? summary;
    }
  }
  const called = new Set<string>();
  let askCalls = 0;
  let askErrors = 0;
  for (const message of turn) {
    if (message.role !== "assistant") continue;
    for (const part of message.content) {
      if (part.type !== "tool-call") continue;
      called.add(part.toolName);
      if (part.toolName !== ASK_TOOL_NAME || part.toolCallId.startsWith("intake-")) continue;
      askCalls += 1;
      const result = results.get(part.toolCallId);
      if (result && isAskFailure(result)) askErrors += 1;
    }
  }
  const last = prompt.at(-1);
  const lastResults =
    last?.role === "tool"
      ? last.content.flatMap((part) => (part.type === "tool-result" ? [readOutput(part)] : []))
      : [];
  const tools = (options.tools ?? []).filter(
    (tool): tool is LanguageModelV4FunctionTool => tool.type === "function",
  );
  return {
    system: prompt
      .filter((message) => message.role === "system")
      .map(textOf)
      .join("\n"),
    request: lastUser >= 0 ? textOf(prompt[lastUser] as LanguageModelV4Message) : "",
    turn,
    step: turn.filter((message) => message.role === "assistant").length,
    lastResults,
    tools,
    askOffered: tools.some((tool) => tool.name === ASK_TOOL_NAME),
    askCalls,
    askErrors,
    called,
    summary,
    toolChoice: options.toolChoice,
  };
}
