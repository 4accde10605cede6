import { isDeadlineMs, MAX_DEADLINE_MS } from "../agents/check-agents";
import { jsonOnce } from "../store/json";
import type { UserMessage } from "../store/rows";
import type { AgentApp, RouteContext } from "./context";
import { field, isObject, readJsonBody } from "./read-body";
import { frameStreamResponse } from "./sse";
import { CLIENT_ID as ID, refusalHeaders, startTurn } from "./start-turn";

type Parsed<T> = { ok: true; value: T } | { ok: false; error: string };

function parseMessage(value: unknown): Parsed<UserMessage> {
  if (!isObject(value)) return { ok: false, error: "message must be an object with role and parts" };
  if (field(value, "role") !== "user") return { ok: false, error: 'message.role must be "user"' };
  const id = field(value, "id");
  if (id !== undefined && (typeof id !== "string" || !ID.test(id))) {
    return { ok: false, error: "message.id must be 1 to 200 letters, digits or . _ : -" };
  }
  const parts = field(value, "parts");
  if (!Array.isArray(parts) || parts.length === 0) {
    return { ok: false, error: 'message.parts must hold at least one { type: "text", text } part' };
  }
  const texts: UserMessage["parts"] = [];
  for (const [index, part] of parts.entries()) {
    if (!isObject(part) || field(part, "type") !== "text" || typeof field(part, "text") !== "string") {
      return { ok: false, error: `message.parts[${index}] must be { type: "text", text: string }` };
    }
    texts.push({ type: "text", text: field(part, "text") as string });
  }
  return {
    ok: true,
    value: { id: typeof id === "string" ? id : `msg-${crypto.randomUUID()}`, role: "user", parts: texts },
  };
}

/** The refusal of a deadline: the field, the rule and the value. */
type DeadlineRefusal = { error: string; field: string; value: string };

/**
 * The run's opt-in deadline from the request: `expiresAt` (an ISO 8601 date and time, within a
 * year) or `expiresInMs` (a second to a year); neither is no deadline.
 */
function parseDeadline(
  body: Record<string, unknown>,
): { ok: true; at?: Date } | ({ ok: false } & DeadlineRefusal) {
  const at = field(body, "expiresAt");
  const inMs = field(body, "expiresInMs");
  if (at !== undefined && inMs !== undefined) {
    return {
      ok: false,
      error: "Give expiresAt or expiresInMs, not both.",
      field: "expiresInMs",
      value: String(inMs),
    };
  }
  if (inMs !== undefined) {
    if (!isDeadlineMs(inMs)) {
      return {
        ok: false,
        error: `expiresInMs must be a whole number of milliseconds from 1000 to ${MAX_DEADLINE_MS} (a year)`,
        field: "expiresInMs",
        value: JSON.stringify(inMs),
      };
    }
    return { ok: true, at: new Date(Date.now() + inMs) };
  }
  if (at === undefined) return { ok: true };
  const parsed = typeof at === "string" && /^\d{4}-\d{2}-\d{2}T/.test(at) ? new Date(at) : undefined;
  const wait = parsed ? parsed.getTime() - Date.now() : Number.NaN;
  if (!(wait > 0 && wait <= MAX_DEADLINE_MS)) {
    return {
      ok: false,
      error:
        "expiresAt must be an ISO 8601 date and time (2026-12-24T18:00:00Z) in the future, within a year",
      field: "expiresAt",
      value: typeof at === "string" ? at.slice(0, 100) : JSON.stringify(at),
    };
  }
  return { ok: true, at: parsed as Date };
}

/** `POST /agent/chat`: starts a turn and streams its frames until it parks or finishes. */
export function chatRoute(app: AgentApp, context: RouteContext): void {
  app.post("/agent/chat", async (c) => {
    const body = await readJsonBody(c.req.raw);
    if (!body.ok) return c.json({ error: body.error }, body.status);
    if (!isObject(body.value)) return c.json({ error: "The body must be a JSON object." }, 400);
    const agentName = field(body.value, "agent");
    const threadField = field(body.value, "threadId");
    if (agentName !== undefined && typeof agentName !== "string") {
      return c.json({ error: "agent must be a string naming a hosted agent" }, 400);
    }
    if (threadField !== undefined && (typeof threadField !== "string" || !ID.test(threadField))) {
      return c.json({ error: "threadId must be 1 to 200 letters, digits or . _ : -" }, 400);
    }
    const message = parseMessage(field(body.value, "message"));
    if (!message.ok) return c.json({ error: message.error }, 400);
    const deadline = parseDeadline(body.value);
    if (!deadline.ok)
      return c.json({ error: deadline.error, field: deadline.field, value: deadline.value }, 400);
    const threadId = threadField ?? `thread-${crypto.randomUUID()}`;
    const turn = await startTurn(context, {
      actorId: c.get("actorId"),
      ...(agentName !== undefined ? { agent: agentName } : {}),
      threadId,
      message: message.value,
      ...(deadline.at ? { expiresAt: deadline.at } : {}),
    });
    if (!turn.ok) return c.json(turn.body, turn.status, refusalHeaders(turn));
    const { runId, runStart } = turn;
    return frameStreamResponse({
      store: context.store,
      feeds: context.runFeeds,
      runId,
      after: 0,
      // The run's first frame was written by the statement that started it.
      known: [{ seq: 1, frame: runStart, json: jsonOnce(runStart) }],
      followAll: false,
      closing: context.closing,
      headers: { "x-run-id": runId, "x-thread-id": threadId },
    });
  });
}
