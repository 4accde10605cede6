import type { LanguageModelV4FunctionTool } from "@ai-sdk/provider";
import { ASK_TOOL_NAME, EDITED_HEADING, SKIPPED_HEADING } from "prepick/core";
import { shorten } from "./cut-text";
import { inputFromSchema } from "./input-from-schema";
import { isAskFailure, type PromptView, type ReadResult } from "./read-prompt";
import { ambiguousTopic, askInputFor, malformedAskInput } from "./scripted-questions";

/** One tool call the scripted model makes. */
export interface ScriptedCall {
  /** The tool called. */
  toolName: string;
  /** Its input, a JSON value. */
  input: unknown;
}

/** What the scripted model answers a prompt with: text, or tool calls. */
export type ScriptedReply = { type: "text"; text: string } | { type: "tool-calls"; calls: ScriptedCall[] };

/** One row of the rule table: when it applies, and what the model answers. */
export interface ScriptedRule {
  /** Names the rule in docs and tests. */
  name: string;
  /** Whether the rule applies to this prompt. */
  when(view: PromptView): boolean;
  /** The reply. */
  reply(view: PromptView): ScriptedReply;
}

/** The provider-options key under which a tool's `keywords` reach the scripted model. */
export const SCRIPTED_OPTIONS_KEY = "prepick";

/** The most tools one reply calls at once. */
const MAX_PARALLEL_CALLS = 3;

const text = (value: string): ScriptedReply => ({ type: "text", text: value });

function quote(request: string): string {
  const line = request.trim().split("\n")[0] ?? "";
  return shorten(line, 80);
}

function show(value: unknown): string {
  const shown = typeof value === "string" ? value : JSON.stringify(value);
  return shown === undefined ? "nothing" : shorten(shown, 200);
}

function phrases(tool: LanguageModelV4FunctionTool): string[] {
  const own = tool.providerOptions?.[SCRIPTED_OPTIONS_KEY]?.keywords;
  const keywords = Array.isArray(own) ? own.filter((word): word is string => typeof word === "string") : [];
  return [tool.name, tool.name.replace(/[_-]+/g, " "), ...keywords].map((phrase) => phrase.toLowerCase());
}

function mentionedTools(view: PromptView): LanguageModelV4FunctionTool[] {
  const request = view.request.toLowerCase();
  return view.tools.filter(
    (tool) =>
      tool.name !== ASK_TOOL_NAME &&
      !view.called.has(tool.name) &&
      phrases(tool).some((phrase) => phrase !== "" && request.includes(phrase)),
  );
}

function callTools(view: PromptView, tools: LanguageModelV4FunctionTool[]): ScriptedReply {
  return {
    type: "tool-calls",
    calls: tools.slice(0, MAX_PARALLEL_CALLS).map((tool) => ({
      toolName: tool.name,
      input: inputFromSchema(tool.inputSchema, view.request),
    })),
  };
}

const mayCallTools = (view: PromptView) => view.toolChoice?.type !== "none";
const askResults = (view: PromptView) => view.lastResults.filter((r) => r.toolName === ASK_TOOL_NAME);
const mayAsk = (view: PromptView) => view.askOffered && mayCallTools(view) && view.askCalls === 0;

/** One question of a summary as the person reads it: the prompt and what stands. */
interface Choice {
  prompt: string;
  answer: string;
}

/**
 * The choices a summary (`heading`, then `prompt → labels` lines, multi-line text indented under
 * its line) records, and whether the person skipped. The heading is written for the model, so a
 * reply to the person never quotes it.
 */
function readChoices(summary: string): { skipped: boolean; choices: Choice[] } {
  const [heading = "", ...lines] = summary.split("\n");
  const choices: Choice[] = [];
  for (const line of lines) {
    const last = choices.at(-1);
    if (line.startsWith("    ") && last) {
      last.answer = `${last.answer} ${line.trim()}`;
      continue;
    }
    const at = line.lastIndexOf(" → ");
    if (at < 0) continue;
    const answer = line.slice(at + 3).trim();
    choices.push({
      prompt: line.slice(0, at).trim(),
      answer: answer === "(no answer)" ? "no answer" : answer,
    });
  }
  return { skipped: heading === SKIPPED_HEADING, choices };
}

/** The choices as a Markdown list: `- How much should I cover? **This file**`. */
function choiceList(choices: readonly Choice[]): string {
  return choices.map((choice) => `- ${choice.prompt} **${choice.answer}**`).join("\n");
}

/** What the scripted model says once its questions are settled, as a person would write it. */
function settledReply(summary: string | undefined, request: string): string {
  const work = `"${quote(request)}"`;
  const { skipped, choices } = readChoices(summary ?? "");
  if (choices.length === 0) return `Thanks. I will now work on ${work}.`;
  const opening = skipped
    ? `You left the choices to me, so I will work on ${work} with my own picks:`
    : `Thanks, that settles it. I will now work on ${work} with your choices:`;
  return `${opening}\n\n${choiceList(choices)}`;
}

/**
 * A result of a call the person edited before approving it (the loop's `edits` sentence, then
 * `prompt → value (you proposed …)` lines), as a person would say it back:
 * `How far back, in hours? 6 (instead of the 24 I proposed)`.
 */
function describeEdits(value: unknown): { changes: string; rest: unknown } | undefined {
  if (value === null || typeof value !== "object" || !("edits" in value)) return undefined;
  const { edits, output, error } = value as { edits?: unknown; output?: unknown; error?: unknown };
  if (typeof edits !== "string" || !edits.startsWith(EDITED_HEADING)) return undefined;
  const changes = edits
    .slice(EDITED_HEADING.length)
    .split("\n")
    .flatMap((line) => {
      const match = / → (.*) \(you proposed (.*)\)$/.exec(line);
      if (!match) return [];
      const prompt = line.slice(0, match.index).trim();
      return [`${prompt} ${match[1]} (instead of the ${match[2]} I proposed)`];
    });
  return { changes: changes.join("; "), rest: error ?? output };
}

function describeResult(result: ReadResult): string {
  const edited = describeEdits(result.value);
  if (edited) {
    const outcome =
      result.status === "error" ? `failed: ${show(edited.rest)}` : `returned ${show(edited.rest)}`;
    return `I ran ${result.toolName} with your changes: ${edited.changes}. It ${outcome}.`;
  }
  if (result.status === "denied") {
    return `I did not run ${result.toolName}: it was rejected${result.value ? ` (${show(result.value)})` : ""}.`;
  }
  if (result.status === "error") return `${result.toolName} failed: ${show(result.value)}.`;
  return `${result.toolName} returned ${show(result.value)}.`;
}

/**
 * The scripted model's behaviour, tried in order; the first rule that applies answers. See
 * `docs/models.md` for the table in prose.
 */
export const SCRIPTED_RULES: readonly ScriptedRule[] = [
  {
    name: "forced-tool",
    when: (view) =>
      view.toolChoice?.type === "tool" || (view.toolChoice?.type === "required" && view.step === 0),
    reply: (view) => {
      const choice = view.toolChoice;
      const wanted = choice?.type === "tool" ? choice.toolName : undefined;
      const tool = view.tools.find((candidate) => candidate.name === wanted) ?? view.tools[0];
      if (tool === undefined) return text("There is no tool I could call.");
      if (tool.name === ASK_TOOL_NAME)
        return { type: "tool-calls", calls: [{ toolName: ASK_TOOL_NAME, input: askInputFor(view.request) }] };
      return callTools(view, [tool]);
    },
  },
  {
    name: "ask-retry",
    when: (view) =>
      view.askOffered && mayCallTools(view) && view.askErrors === 1 && askResults(view).some(isAskFailure),
    reply: (view) => ({
      type: "tool-calls",
      calls: [{ toolName: ASK_TOOL_NAME, input: askInputFor(view.request) }],
    }),
  },
  {
    name: "ask-malformed",
    when: (view) => mayAsk(view) && /\bmalformed\b/i.test(view.request),
    reply: () => ({ type: "tool-calls", calls: [{ toolName: ASK_TOOL_NAME, input: malformedAskInput() }] }),
  },
  {
    name: "ask-ambiguous",
    when: (view) => mayAsk(view) && ambiguousTopic(view.request) !== undefined,
    reply: (view) => ({
      type: "tool-calls",
      calls: [{ toolName: ASK_TOOL_NAME, input: askInputFor(view.request) }],
    }),
  },
  {
    // Answered, and the request names tools: the work starts with them.
    name: "ask-answered-call-tool",
    when: (view) =>
      askResults(view).some((result) => !isAskFailure(result)) &&
      mayCallTools(view) &&
      mentionedTools(view).length > 0,
    reply: (view) => callTools(view, mentionedTools(view)),
  },
  {
    name: "ask-answered",
    when: (view) => askResults(view).some((result) => !isAskFailure(result)),
    reply: (view) => text(settledReply(view.summary, view.request)),
  },
  {
    name: "ask-failed-twice",
    when: (view) => askResults(view).length > 0,
    reply: (view) =>
      text(
        `I could not put my questions into a valid form, so I will go ahead on "${quote(view.request)}" as I see fit.`,
      ),
  },
  {
    name: "tool-result",
    when: (view) => view.lastResults.length > 0,
    reply: (view) => text(view.lastResults.map(describeResult).join("\n")),
  },
  {
    name: "call-tool",
    when: (view) => mayCallTools(view) && mentionedTools(view).length > 0,
    reply: (view) => callTools(view, mentionedTools(view)),
  },
  {
    name: "reply",
    when: () => true,
    reply: (view) => {
      if (view.request.trim() === "") return text("Hello. What should I work on?");
      const { choices } = readChoices(view.summary ?? "");
      const answers = choices.length > 0 ? `\n\nGoing by your answers:\n\n${choiceList(choices)}` : "";
      return text(
        `Here is my answer to "${quote(view.request)}".${answers}\n\n` +
          "This reply comes from the built-in scripted model; set `PREPICK_MODEL_BASE_URL` to use a real one.",
      );
    },
  },
];

/** The rule that answers a prompt: the first whose condition holds. */
export function ruleFor(view: PromptView): ScriptedRule {
  // The last rule always applies, so the find never comes back empty.
  return SCRIPTED_RULES.find((rule) => rule.when(view)) ?? (SCRIPTED_RULES.at(-1) as ScriptedRule);
}
