import { z } from "zod";
import { checkQuestions, type DefinitionIssue, withHotkeys } from "./check-questions";
import { type ElicitationRequest, QuestionSchema } from "./question";
import { zodIssues } from "./zod-issues";

/** When an agent's intake asks: once per thread, or before every turn. */
export const IntakeWhenSchema = z.enum(["thread-start", "every-turn"]);

/** The questions an agent declares, asked before its turn starts. */
export const IntakeSchema = z.object({
  /** Said once above the questions. */
  preamble: z.string().optional(),
  /** The questions, in the order they are asked. */
  questions: z.array(QuestionSchema).min(1, "must hold at least one question"),
  /** `thread-start` (the default) asks on the first turn of a thread; `every-turn` before each. */
  when: IntakeWhenSchema.default("thread-start"),
});

/** An intake as written by its author (`when` may be left out). */
export type IntakeConfig = z.input<typeof IntakeSchema>;

/** An intake after parsing (`when` filled in). */
export type Intake = z.output<typeof IntakeSchema>;

/** The result of checking an intake definition. */
export type CheckedIntake = { success: true; intake: Intake } | { success: false; issues: DefinitionIssue[] };

/**
 * Checks an intake as its author wrote it: the shape, then every rule of {@link checkQuestions}.
 * A valid intake comes back with `when` filled in and a hotkey on every option.
 */
export function checkIntake(input: unknown): CheckedIntake {
  const parsed = IntakeSchema.safeParse(input);
  if (!parsed.success) return { success: false, issues: zodIssues(parsed.error) };
  const questions = parsed.data.questions.map(withHotkeys);
  const issues = checkQuestions(questions);
  return issues.length > 0
    ? { success: false, issues }
    : { success: true, intake: { ...parsed.data, questions } };
}

/** The elicitation request an intake posts. */
export function intakeRequest(intake: Intake): ElicitationRequest {
  return {
    ...(intake.preamble !== undefined ? { preamble: intake.preamble } : {}),
    questions: intake.questions,
    source: "intake",
  };
}
