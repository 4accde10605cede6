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
    const threadId = threadField ?? `thread-${crypto.randomUUID()}`;
    const turn = await startTurn(context, {
      actorId: c.get("actorId"),
      ...(agentName !== undefined ? { agent: agentName } : {}),
      threadId,
      message: message.value,
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
