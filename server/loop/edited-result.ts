import type { ToolResultPart } from "ai";
import { type ApprovalEdits, type Question, summarizeEdits } from "prepick/core";

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
    edits: summarizeEdits(questions, edits),
    proposedInput: proposedInput as never,
    input: edits.input as never,
    edited,
  };
  return result.ok
    ? { type: "json", value: { ...told, output: result.output as never } }
    : { type: "error-json", value: { ...told, error: result.error } };
}
