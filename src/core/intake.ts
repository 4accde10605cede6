import { checkQuestions, type DefinitionIssue, withHotkeys } from "./check-questions";
import { type ElicitationRequest, type Intake, IntakeSchema } from "./question";
import { zodIssues } from "./zod-issues";

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
