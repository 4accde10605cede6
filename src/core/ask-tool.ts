import { z } from "zod";
import { checkQuestions, type DefinitionIssue, withHotkeys } from "./check-questions";
import { type ElicitationRequest, InputSchema, OptionSchema, QuestionSchema } from "./question";
import { zodIssues } from "./zod-issues";

/** The most questions one `ask` call may hold. */
export const MAX_ASK_QUESTIONS = 5;

/** The name the model calls the tool by. */
export const ASK_TOOL_NAME = "ask";

/** What the model is told the tool is for. */
export const ASK_TOOL_DESCRIPTION = [
  "Ask the user up to five questions before you start, when the request could be met in",
  "several ways and the choice matters. Pre-pick the answer you would choose on every question",
  "that has options (defaults), so the user can simply confirm. The result's summary tells you",
  "what the user chose, or that they skipped and your picks stand.",
].join(" ");

const common = {
  id: z.string().min(1).describe("Unique id of the question, used as the key of the answers."),
  prompt: z.string().min(1).describe("The question, one line."),
  description: z.string().optional().describe("A line of help under the prompt."),
  multiple: z.boolean().optional().describe("Allow more than one value."),
};

const ChoiceQuestionSchema = z.object({
  ...common,
  options: z.array(OptionSchema).min(1).describe("The choices to pick from."),
  allowFreeText: z.boolean().optional().describe("Also accept a value that is not an option."),
  input: InputSchema.extend({ type: z.literal("select") })
    .optional()
    .describe("Leave out for a plain pick, or use type select for a drop-down."),
  defaults: z
    .array(z.string())
    .min(1, "must pre-pick at least one option: the answer you would choose")
    .describe("Required: the option values you would choose yourself."),
});

const TypedQuestionSchema = z.object({
  ...common,
  input: InputSchema.extend({
    type: z.enum(["text", "textarea", "number", "boolean", "date", "email", "url"]),
  }).describe("The kind of value asked for and its rules (min, max, pattern, required)."),
  defaults: z
    .array(z.string())
    .optional()
    .describe("Your pre-picked value, in canonical form (42, true, 2026-01-31), if you have one."),
});

/** The input the model gives the `ask` tool; its JSON Schema is what the model sees. */
export const AskToolInputSchema = z.object({
  preamble: z.string().optional().describe("One or two sentences said above the questions."),
  questions: z
    .array(z.union([ChoiceQuestionSchema, TypedQuestionSchema]))
    .min(1, "must hold at least one question")
    .max(MAX_ASK_QUESTIONS, `must hold at most ${MAX_ASK_QUESTIONS} questions`),
});

/** The input the model gives the `ask` tool. */
export type AskToolInput = z.infer<typeof AskToolInputSchema>;

/** The `ask` tool's input as JSON Schema, for any model API. */
export const askToolJsonSchema = z.toJSONSchema(AskToolInputSchema);

// Parsing is laxer than the schema the model sees, so that a question missing its defaults is
// told exactly that by checkQuestions, not "invalid input" by a union that matched neither branch.
const AskCallSchema = z.object({
  preamble: z.string().optional(),
  questions: z
    .array(QuestionSchema)
    .min(1, "must hold at least one question")
    .max(MAX_ASK_QUESTIONS, `must hold at most ${MAX_ASK_QUESTIONS} questions`),
});

/** The result of reading a model's `ask` call. */
export type ParsedAsk =
  | { success: true; request: ElicitationRequest }
  | { success: false; issues: DefinitionIssue[] };

/**
 * Reads a model's `ask` call. A well-formed call becomes the elicitation request (hotkeys
 * assigned); a malformed one becomes the issues the model gets back as an ordinary tool failure,
 * so it can fix its own mistake.
 */
export function parseAskInput(input: unknown): ParsedAsk {
  const parsed = AskCallSchema.safeParse(input);
  if (!parsed.success) return { success: false, issues: zodIssues(parsed.error) };
  const questions = parsed.data.questions.map(withHotkeys);
  const issues = checkQuestions(questions);
  if (issues.length > 0) return { success: false, issues };
  return {
    success: true,
    request: {
      ...(parsed.data.preamble !== undefined ? { preamble: parsed.data.preamble } : {}),
      questions,
      source: "ask",
    },
  };
}

/** The text a malformed `ask` call returns to the model. */
export function describeAskIssues(issues: readonly DefinitionIssue[]): string {
  return [
    "The questions were not asked. Fix these and call ask again:",
    ...issues.map((i) => `- ${i.message}`),
  ].join("\n");
}
