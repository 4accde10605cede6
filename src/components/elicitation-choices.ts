import { englishMessages, type PrepickMessages } from "@/hooks/prepick-messages";
import { withHotkeys } from "@/lib/prepick/core/check-questions";
import type { Option, Question } from "@/lib/prepick/core/question";

/**
 * The options a question shows as radios or checkboxes, each with a hotkey: its own options for
 * a plain question, Yes/No for a boolean (in the words of `labels`, the hotkeys stay `y` and `n`),
 * none for a select or another typed question.
 */
export function elicitationChoices(
  question: Question,
  labels: Pick<PrepickMessages, "form"> = englishMessages,
): readonly Option[] {
  if (question.input?.type === "boolean") {
    return [
      { value: "true", label: labels.form.yes, hotkey: "y" },
      { value: "false", label: labels.form.no, hotkey: "n" },
    ];
  }
  if (question.input !== undefined) return [];
  return withHotkeys(question).options ?? [];
}
