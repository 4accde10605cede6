import {
  ASK_TOOL_NAME,
  type ElicitationRequest,
  parseAnswers,
  settleAnswers,
  settleSkipped,
  validateAnswers,
} from "prepick/core";
import type { ToolCallStatus } from "../store/rows";
import type { AgentApp, RouteContext } from "./context";
import { field, isObject, readJsonBody } from "./read-body";

type Action = "answer" | "skip" | "approve" | "reject";

const SETTLES_TO: Record<Action, ToolCallStatus> = {
  answer: "answered",
  skip: "skipped",
  approve: "approved",
  reject: "rejected",
};

const MAX_REASON = 2000;

/**
 * `POST /agent/tool-call/{answer,skip,approve,reject}`: a person settles a pending row. The acting
 * actor must own the row's thread (404 otherwise); every check runs before anything is written,
 * and the row and its run change in one transaction.
 */
export function toolCallRoutes(app: AgentApp, context: RouteContext): void {
  for (const action of Object.keys(SETTLES_TO) as Action[]) {
    app.post(`/agent/tool-call/${action}`, async (c) => {
      const body = await readJsonBody(c.req.raw);
      if (!body.ok) return c.json({ error: body.error }, body.status);
      if (!isObject(body.value)) return c.json({ error: "The body must be a JSON object." }, 400);
      const toolCallId = field(body.value, "toolCallId");
      if (typeof toolCallId !== "string" || toolCallId === "") {
        return c.json({ error: "toolCallId must be a non-empty string" }, 400);
      }
      const row = await context.store.toolCall(toolCallId);
      if (!row || row.actorId !== c.get("actorId")) {
        return c.json({ error: `No tool call ${toolCallId} is waiting for you.` }, 404);
      }
      const isAsk = row.name === ASK_TOOL_NAME;
      if ((action === "answer" || action === "skip") && !isAsk) {
        return c.json(
          {
            error: `${toolCallId} is the tool "${row.name}" awaiting approval, not a question set; use /agent/tool-call/approve or /agent/tool-call/reject`,
          },
          400,
        );
      }
      if ((action === "approve" || action === "reject") && isAsk) {
        return c.json(
          {
            error: `${toolCallId} is a question set, not a tool awaiting approval; use /agent/tool-call/answer or /agent/tool-call/skip`,
          },
          400,
        );
      }
      const conflict = (status: ToolCallStatus | undefined, output: unknown) =>
        c.json({ error: `${toolCallId} was already settled as ${status}`, toolCallId, status, output }, 409);
      if (row.status !== "pending_approval") return conflict(row.status, row.output);
      let output: unknown = null;
      if (action === "answer" || action === "skip") {
        const questions = (row.input as ElicitationRequest).questions;
        if (action === "skip") output = settleSkipped(questions);
        else {
          const parsed = parseAnswers(field(body.value, "answers"));
          const issues = parsed.success ? validateAnswers(questions, parsed.answers) : parsed.issues;
          if (!parsed.success || issues.length > 0) {
            return c.json(
              { error: `The answers were refused: ${issues.map((i) => i.message).join("; ")}`, issues },
              400,
            );
          }
          output = settleAnswers(questions, parsed.answers);
        }
      } else if (action === "reject") {
        const reason = field(body.value, "reason");
        if (reason !== undefined && (typeof reason !== "string" || reason.length > MAX_REASON)) {
          return c.json({ error: `reason must be a string of at most ${MAX_REASON} characters` }, 400);
        }
        output = reason === undefined ? {} : { reason };
      }
      // With room here, the settlement claims the run too, and this process resumes it at once.
      const claimFor = context.worker.reserve(row.runId);
      let settled: Awaited<ReturnType<typeof context.store.settleByPerson>> | undefined;
      try {
        settled = await context.store.settleByPerson(toolCallId, SETTLES_TO[action], output, claimFor);
      } finally {
        if (claimFor) context.worker.unreserve();
      }
      if (!settled.settled) return conflict(settled.row?.status, settled.row?.output);
      const resumed = {
        callId: toolCallId,
        settlement: { status: settled.row.status, output: settled.row.output },
      };
      if (settled.claimed) context.worker.resume(settled.claimed, resumed);
      else context.worker.kick(row.runId, resumed);
      return c.json({ toolCallId, status: SETTLES_TO[action], output });
    });
  }
}
