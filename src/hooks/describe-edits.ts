import { type ApprovalEdits, answersOfInput } from "@/lib/prepick/core/approval-edits";
import type { Question } from "@/lib/prepick/core/question";
import { formatAnswer } from "./format-answer";
import { englishMessages, type PrepickMessages } from "./prepick-messages";

/** One field of an approved editable call, as a person reads it. */
export interface ApprovedField {
  /** The field (the question's id). */
  questionId: string;
  /** The field's question. */
  prompt: string;
  /** The values it ran with, as the person reads them (option labels, numbers and dates for the locale). */
  labels: readonly string[];
  /** What the model had proposed, read the same way. */
  proposed: readonly string[];
  /** True when the person changed it. */
  edited: boolean;
}

/**
 * An approved editable call's fields as a person reads them, in question order: what each ran
 * with, what the model proposed (the questions' defaults), and which the person changed.
 */
export function describeEdits(
  questions: readonly Question[],
  edits: ApprovalEdits,
  messages: PrepickMessages = englishMessages,
): ApprovedField[] {
  const ran = answersOfInput(questions, edits.input);
  const edited = new Set(edits.edited);
  const read = (question: Question, values: readonly string[]) =>
    values.map((value) => formatAnswer(question, value, messages));
  return questions.map((question) => ({
    questionId: question.id,
    prompt: question.prompt,
    labels: read(question, ran[question.id] ?? []),
    proposed: read(question, question.defaults ?? []),
    edited: edited.has(question.id),
  }));
}
