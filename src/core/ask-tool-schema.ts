// What the model sees of the `ask` tool: its description and input schema, for whoever offers the
// tool to a model. A page only reads calls (ask-tool.ts), so it never needs this module.
import { z } from "zod";
import { MAX_ASK_QUESTIONS } from "./ask-tool";
import { URL_SCHEMES } from "./formats";
import { InputSchema, OptionSchema } from "./question";

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
  minItems: z
    .number()
    .int()
    .min(0)
    .optional()
    .describe("With multiple: the fewest values an answer may hold."),
  maxItems: z.number().int().min(1).optional().describe("With multiple: the most values an answer may hold."),
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
    type: z.enum(["text", "textarea", "number", "boolean", "date", "datetime", "email", "url"]),
    schemes: z
      .array(z.enum(URL_SCHEMES))
      .optional()
      .describe("Url questions only: the schemes allowed; http and https if left out."),
  }).describe("The kind of value asked for and its rules (min, max, step, pattern, required)."),
  defaults: z
    .array(z.string())
    .optional()
    .describe(
      "Your pre-picked value, in canonical form (42, true, 2026-01-31, 2026-01-31T09:30), if you have one.",
    ),
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
