import {
  type AnswerIssue,
  type ApprovalEdits,
  answersOfInput,
  applyEdits,
  editedQuestions,
  parseAnswers,
  validateAnswers,
} from "prepick/core";
import { type EditableField, emptiedAs } from "../agents/editable-fields";
import type { AgentDefinition, ToolDefinition } from "../agents/types";
import type { OwnedToolCall } from "../store/rows";
import type { Store } from "../store/store";

/** What approving an editable call with these answers comes to: the edits, or why they are refused. */
export type ApprovalAnswers =
  | { ok: true; edits: ApprovalEdits }
  | { ok: false; error: string; issues?: AnswerIssue[] };

function refusedBy(issues: AnswerIssue[]): ApprovalAnswers {
  return {
    ok: false,
    error: `The edits were refused: ${issues.map((issue) => issue.message).join("; ")}`,
    issues,
  };
}

/** The tool the call's run would run, as the agent hosting it declares it now; undefined when gone. */
async function toolOf(
  context: { store: Store; agents?: readonly AgentDefinition[] },
  row: OwnedToolCall,
): Promise<{ tool: ToolDefinition; fields?: readonly EditableField[] } | undefined> {
  if (!context.agents) return undefined;
  const run = await context.store.runs.get(row.runId);
  const agent = context.agents.find((candidate) => candidate.name === run?.agent);
  const tool = agent?.tools.find((candidate) => candidate.name === row.name);
  if (!agent || !tool) return undefined;
  const fields = agent.editing.get(tool.name);
  return { tool, ...(fields ? { fields } : {}) };
}

/**
 * Checks a person's edits to an editable call awaiting approval, with the rules answers have: the
 * answers against the row's questions (`validateAnswers`; a field left out keeps the proposal,
 * which the tool's schema already took, so only what is sent is judged), then the input they make
 * against the tool's own zod schema, for what a question cannot show (a refinement): a failure
 * there is an issue with rule `schema` on the field it names. No answers approve as proposed.
 */
export async function checkApprovalAnswers(
  context: { store: Store; agents?: readonly AgentDefinition[] },
  row: OwnedToolCall & { questions: NonNullable<OwnedToolCall["questions"]> },
  sent: unknown,
): Promise<ApprovalAnswers> {
  const parsed = parseAnswers(sent);
  if (!parsed.success) return refusedBy(parsed.issues);
  const { answers } = parsed;
  const issues = validateAnswers(row.questions, answers).filter(
    (issue) => issue.rule !== "required" || Object.hasOwn(answers, issue.questionId),
  );
  if (issues.length > 0) return refusedBy(issues);
  const found = await toolOf(context, row);
  // A tool the agent no longer has, or no longer lets edit: an emptied field is left out, and the
  // loop parses what runs with the tool as it is then.
  const edits = applyEdits(row.questions, row.input, answers, emptiedAs(found?.fields ?? []));
  if (edits.edited.length === 0 || !found) return { ok: true, edits };
  const checked = found.tool.inputSchema.safeParse(edits.input);
  if (checked.success) {
    // What runs is the parsed input (an emptied field with a default takes it): the edits are
    // what differs from the proposal there.
    const input = checked.data as Record<string, unknown>;
    return {
      ok: true,
      edits: { input, edited: editedQuestions(row.questions, answersOfInput(row.questions, input)) },
    };
  }
  return refusedBy(
    checked.error.issues.map((issue) => {
      const field = String(issue.path[0] ?? "");
      const value = answers[field]?.[0];
      return {
        questionId: field,
        rule: "schema",
        ...(value !== undefined ? { value } : {}),
        message: `answers[${JSON.stringify(field)}] is refused by the tool's input schema: ${issue.message}`,
      };
    }),
  );
}
