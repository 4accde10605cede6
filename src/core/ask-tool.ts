import { z } from "zod";
import { checkQuestions, type DefinitionIssue, withHotkeys } from "./check-questions";
import { type ElicitationRequest, QuestionSchema } from "./question";
import { zodIssues } from "./zod-issues";

/** The most questions one `ask` call may hold. */
export const MAX_ASK_QUESTIONS = 5;

/** The name the model calls the tool by. */
export const ASK_TOOL_NAME = "ask";

// Parsing is laxer than the schema the model sees (ask-tool-schema.ts), so that a question missing
// its defaults is told exactly that by checkQuestions, not "invalid input" by a union that matched
// neither branch.
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
