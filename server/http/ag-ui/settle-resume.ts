import type { ResumeEntry } from "@ag-ui/core";
import { ASK_TOOL_NAME, type SequencedFrame } from "prepick/core";
import { type SettleAction, type SettleOutcome, settleCall } from "../../loop/settle-call";
import type { OwnedToolCall } from "../../store/rows";
import type { RouteContext } from "../context";
import { approvalDecision } from "./approval-payload";
import { payloadAnswers } from "./response-schema";

/** Why a resume settled nothing, as the `RUN_ERROR` that says so carries it. */
export interface ResumeRefusal {
  /** The sentence: the same as the tool-call endpoints answer. */
  message: string;
  /** `not_found`, `refused` or `already_settled`: the 404, 400 and 409 of those endpoints. */
  code: "not_found" | "refused" | "already_settled";
  /** What the refusal names: the interrupt, and the answer issues or the stored outcome. */
  metadata: Record<string, unknown>;
}

/** A resume that settled its calls: the run they belong to, and its frames up to its park. */
export interface SettledResume {
  /** Our run, now resuming. */
  runId: string;
  /** The run's frames before the resume: what the reader already has. */
  before: SequencedFrame[];
}

/**
 * What an entry does to its call: a question set is answered or skipped, a tool approved (an
 * editable one perhaps with edits) or rejected; or why the entry cannot be read.
 */
function settleRequest(
  row: OwnedToolCall,
  entry: ResumeEntry,
): { action: SettleAction; answers?: unknown; reason?: unknown } | { action: "refuse"; error: string } {
  if (row.name === ASK_TOOL_NAME) {
    return entry.status === "cancelled"
      ? { action: "skip" }
      : { action: "answer", answers: payloadAnswers(entry.payload) };
  }
  return approvalDecision(row, entry);
}

function refusal(
  index: number,
  entry: ResumeEntry,
  outcome: Exclude<SettleOutcome, { kind: "settled" }>,
): ResumeRefusal {
  const named = { interruptId: entry.interruptId, entry: index };
  switch (outcome.kind) {
    case "not-found":
      return { message: outcome.error, code: "not_found", metadata: named };
    case "refused":
      return {
        message: outcome.error,
        code: "refused",
        metadata: { ...named, ...(outcome.issues ? { issues: outcome.issues } : {}) },
      };
    case "already-settled":
      return {
        message: outcome.error,
        code: "already_settled",
        metadata: { ...named, status: outcome.status, output: outcome.output },
      };
  }
}

/**
 * Settles the calls a `RunAgentInput`'s resume entries answer, each through the one settle
 * operation (`settleCall`, as `POST /agent/tool-call/*` do), with its checks: `resolved` answers
 * a question set with the payload (or confirms its defaults when there is none) and approves a
 * tool (an editable one with the edits its payload carries, `approvalDecision`); `cancelled` skips
 * a question set and rejects a tool. Every entry must name a call of this
 * thread that is still waiting, all of one run, before any is settled; a refused entry settles
 * nothing more. Our runs wait on one call at a time, so a resume settles one call in practice.
 */
export async function settleResume(
  context: RouteContext,
  request: { actorId: string; threadId: string; resume: readonly ResumeEntry[] },
): Promise<{ ok: true; value: SettledResume } | { ok: false; refusal: ResumeRefusal }> {
  const { actorId, threadId, resume } = request;
  const rows: OwnedToolCall[] = [];
  for (const [index, entry] of resume.entries()) {
    const row = await context.store.toolCalls.get(entry.interruptId);
    if (!row || row.actorId !== actorId || row.threadId !== threadId) {
      const error = `No interrupt ${entry.interruptId} is waiting on thread ${threadId}.`;
      return { ok: false, refusal: refusal(index, entry, { kind: "not-found", error }) };
    }
    if (row.status !== "pending_approval") {
      const error = `${entry.interruptId} was already settled as ${row.status}`;
      return {
        ok: false,
        refusal: refusal(index, entry, {
          kind: "already-settled",
          error,
          status: row.status,
          output: row.output,
        }),
      };
    }
    if (rows[0] && rows[0].runId !== row.runId) {
      const error = `${entry.interruptId} belongs to run ${row.runId}, not to ${rows[0].runId} that resume[0] resumes`;
      return { ok: false, refusal: refusal(index, entry, { kind: "refused", error }) };
    }
    rows.push(row);
  }
  const runId = (rows[0] as OwnedToolCall).runId;
  // Read before settling: the run is parked, so these are exactly the frames the reader has.
  const before = await context.store.frames.after(runId, 0, 100_000);
  const requests = resume.map((entry, index) => settleRequest(rows[index] as OwnedToolCall, entry));
  for (const [index, request] of requests.entries()) {
    if (request.action !== "refuse") continue;
    const entry = resume[index] as ResumeEntry;
    return { ok: false, refusal: refusal(index, entry, { kind: "refused", error: request.error }) };
  }
  for (const [index, entry] of resume.entries()) {
    const request = requests[index];
    if (!request || request.action === "refuse") continue;
    const outcome = await settleCall(context, { actorId, toolCallId: entry.interruptId, ...request });
    if (outcome.kind !== "settled") return { ok: false, refusal: refusal(index, entry, outcome) };
  }
  return { ok: true, value: { runId, before } };
}
