import type { ToolResultPart } from "ai";
import { type ApprovalEdits, answersOfInput, describeValue, type Question, summaryLine } from "prepick/core";

/** The first line of what the model reads about an edited call. */
export const EDITED_HEADING =
  "The person approving this call edited its input, and the tool ran with their input, not the one you proposed:";

function labels(question: Question, values: readonly string[]): string {
  const text = values.map((value) => describeValue(question, value)).join(", ");
  return text === "" ? "(no value)" : text;
}

/**
 * What the model reads about the edits: the heading, then one line per edited field by its
 * label, like an answer summary, with the value it proposed: `How far back? → 24 (you proposed 72)`.
 */
export function describeEdits(questions: readonly Question[], edits: ApprovalEdits): string {
  const ran = answersOfInput(questions, edits.input);
  const lines = edits.edited.flatMap((id) => {
    const question = questions.find((candidate) => candidate.id === id);
    if (!question) return [];
    return [
      `${summaryLine(question, ran[id] ?? [])} (you proposed ${labels(question, question.defaults ?? [])})`,
    ];
  });
  return [EDITED_HEADING, ...lines].join("\n");
}

/**
 * The tool result the model reads for a call a person edited before approving it, so it is
 * never shown a result for arguments it did not propose without being told: what happened
 * (`edits`: the sentence above), the input it proposed, the input that ran, the edited fields by
 * label, and the tool's output (`json`) or error (`error-json`).
 */
export function editedToolResult(
  questions: readonly Question[],
  proposedInput: unknown,
  edits: ApprovalEdits,
  result: { ok: true; output: unknown } | { ok: false; error: string },
): ToolResultPart["output"] {
  const edited = edits.edited.map((id) => questions.find((question) => question.id === id)?.prompt ?? id);
  const told = {
    edits: describeEdits(questions, edits),
    proposedInput: proposedInput as never,
    input: edits.input as never,
    edited,
  };
  return result.ok
    ? { type: "json", value: { ...told, output: result.output as never } }
    : { type: "error-json", value: { ...told, error: result.error } };
}
