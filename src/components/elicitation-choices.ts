import { withHotkeys } from "@/lib/prepick/core/check-questions";
import type { Option, Question } from "@/lib/prepick/core/question";

const BOOLEAN_CHOICES: readonly Option[] = [
  { value: "true", label: "Yes", hotkey: "y" },
  { value: "false", label: "No", hotkey: "n" },
];

/**
 * The options a question shows as radios or checkboxes, each with a hotkey: its own options for
 * a plain question, Yes/No for a boolean, none for a select or another typed question.
 */
export function elicitationChoices(question: Question): readonly Option[] {
  if (question.input?.type === "boolean") return BOOLEAN_CHOICES;
  if (question.input !== undefined) return [];
  return withHotkeys(question).options ?? [];
}
