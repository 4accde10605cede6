import { isDeepStrictEqual } from "node:util";
import type { ResumeEntry } from "@ag-ui/core";
import type { OwnedToolCall } from "../../store/rows";
import { PREPICK_METADATA_KEY } from "./frame-events";
import { payloadAnswers } from "./response-schema";

/** What a resume entry does to a tool awaiting approval, or why it cannot be read. */
export type ApprovalDecision =
  | { action: "approve"; answers?: unknown }
  | { action: "reject"; reason?: unknown }
  | { action: "refuse"; error: string };

/** Keys of a payload that say the decision itself, never an edited field. */
const DECISION_KEYS = new Set(["approved", "reason", "decisions"]);

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function reasonOf(entry: ResumeEntry, said?: unknown): { reason?: unknown } {
  const payload = entry.payload;
  // A `cancelled` entry has no payload: a client that knows us sends the reason in its metadata.
  const carried = entry.metadata?.[PREPICK_METADATA_KEY];
  if (said !== undefined) return { reason: said };
  if (isObject(payload) && Object.hasOwn(payload, "reason")) return { reason: payload.reason };
  if (isObject(carried) && Object.hasOwn(carried, "reason")) return { reason: carried.reason };
  return {};
}

/**
 * The edited input as answers to the call's questions: an editable field's value in JSON types
 * (as `responseSchema` describes it) becomes its answer; a field that is not editable and holds
 * the proposed value is no edit and is dropped; one that changes it is kept, for the answer checks
 * to refuse as no question of the call. `null` is an emptied field.
 */
function editsOf(row: OwnedToolCall, values: Record<string, unknown>): unknown {
  const editable = new Set((row.questions ?? []).map((question) => question.id));
  const proposed = isObject(row.input) ? row.input : {};
  const kept = Object.entries(values).filter(
    ([field, value]) => editable.has(field) || !isDeepStrictEqual(value, proposed[field]),
  );
  // `null` empties a field, as a cleared form control sends it.
  return payloadAnswers(
    Object.fromEntries(kept.map(([field, value]) => [field, value === null ? [] : value])),
  );
}

function approve(row: OwnedToolCall, values: Record<string, unknown>): ApprovalDecision {
  const fields = Object.fromEntries(Object.entries(values).filter(([key]) => !DECISION_KEYS.has(key)));
  if (Object.keys(fields).length === 0) return { action: "approve" };
  if (!row.questions) return { action: "approve" };
  return { action: "approve", answers: editsOf(row, fields) };
}

/**
 * A decision of LangGraph's `HumanInTheLoopMiddleware` (`{ decisions: [{ type: "approve" |
 * "edit" | "reject", edited_action?: { name, args }, message? }] }`), the answer CopilotKit and
 * Agent Inbox send to a LangGraph agent's approval through its AG-UI adapter.
 */
function langGraphDecision(row: OwnedToolCall, entry: ResumeEntry, decision: unknown): ApprovalDecision {
  const type = isObject(decision) ? decision.type : undefined;
  switch (type) {
    case "approve":
      return { action: "approve" };
    case "reject":
      return { action: "reject", ...reasonOf(entry, isObject(decision) ? decision.message : undefined) };
    case "edit": {
      const action = isObject(decision) ? decision.edited_action : undefined;
      if (!isObject(action) || !isObject(action.args)) {
        return { action: "refuse", error: "payload.decisions[0].edited_action.args must be an object" };
      }
      if (action.name !== undefined && action.name !== row.name) {
        return {
          action: "refuse",
          error: `payload.decisions[0].edited_action.name must be "${row.name}", the tool awaiting approval; got ${JSON.stringify(action.name)}`,
        };
      }
      if (!row.questions) {
        return {
          action: "refuse",
          error: `${row.id} is the tool "${row.name}", whose input is not editable; approve it without edits`,
        };
      }
      return { action: "approve", answers: editsOf(row, action.args) };
    }
    default:
      return {
        action: "refuse",
        error: `payload.decisions[0].type must be "approve", "edit" or "reject"; got ${JSON.stringify(type)}`,
      };
  }
}

/**
 * How a resume entry settles a tool awaiting approval. `cancelled`, or a payload with
 * `approved: false`, rejects (with `payload.reason`, else `metadata.prepick.reason`). `resolved`
 * approves: an editable call's payload may carry the edited input, as the values `responseSchema`
 * describes (`{ hours: 6 }`, beside `approved: true` or alone; a field left out keeps the
 * proposal), or as a LangGraph `HumanInTheLoopMiddleware` decision. Any other call's payload is
 * not read beyond `approved`.
 */
export function approvalDecision(row: OwnedToolCall, entry: ResumeEntry): ApprovalDecision {
  const payload: unknown = entry.payload;
  if (entry.status === "cancelled") return { action: "reject", ...reasonOf(entry) };
  if (!isObject(payload)) return { action: "approve" };
  if (Array.isArray(payload.decisions)) return langGraphDecision(row, entry, payload.decisions[0]);
  if (payload.approved === false) return { action: "reject", ...reasonOf(entry) };
  return approve(row, payload);
}
