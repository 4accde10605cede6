import type { UserMessage } from "../store/rows";
import type { AgentApp, RouteContext } from "./context";
import { field, isObject, readJsonBody } from "./read-body";
import { frameStreamResponse } from "./sse";

const ID = /^[\w.:-]{1,200}$/;

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
    const actorId = c.get("actorId");
    const threadId = threadField ?? `thread-${crypto.randomUUID()}`;
    const existing = threadField ? await context.store.threads.get(threadField) : undefined;
    const name = agentName ?? existing?.agent ?? context.agents[0]?.name;
    const agent = context.agents.find((candidate) => candidate.name === name);
    if (!agent) {
      const known = context.agents.map((candidate) => `"${candidate.name}"`).join(", ");
      return c.json({ error: `agent "${name}" is not hosted here; the agents are ${known || "none"}` }, 400);
    }
    const runId = `run-${crypto.randomUUID()}`;
    // With room here, the run starts in this process at once; else any process with room claims it.
    const started = await context.worker.admit((lease) =>
      context.store.runs.start(
        {
          threadId,
          createThread: true,
          actorId,
          agent: agent.name,
          runId,
          messageId: `msg-${crypto.randomUUID()}`,
          userMessage: message.value,
        },
        lease,
      ),
    );
    if (started.kind === "not-found") return c.json({ error: `No thread ${threadId} is yours.` }, 404);
    if (started.kind === "other-agent") {
      return c.json(
        { error: `thread ${threadId} talks to agent "${started.agent}", not "${agent.name}"` },
        400,
      );
    }
    if (started.kind === "busy") {
      return c.json(
        {
          error: `thread ${threadId} already has run ${started.runId} running or waiting for answers; settle or cancel it first`,
          runId: started.runId,
        },
        409,
      );
    }
    return frameStreamResponse({
      store: context.store,
      hub: context.hub,
      runId,
      after: 0,
      followAll: false,
      closing: context.closing,
      headers: { "x-run-id": runId, "x-thread-id": threadId },
    });
  });
}
