import { notFoundError, SETTLES_TO, type SettleAction, settleCall } from "../loop/settle-call";
import type { AgentApp, RouteContext } from "./context";
import { field, isObject, readJsonBody } from "./read-body";

/**
 * `POST /agent/tool-call/{answer,skip,approve,reject}`: a person settles a pending row through
 * the one settle operation. The acting actor must own the row's thread (404 otherwise); every
 * check runs before anything is written, and the row and its run change in one statement.
 */
export function toolCallRoutes(app: AgentApp, context: RouteContext): void {
  // A call's deep link reads it: waiting (answerable) or what became of it. Another actor's call
  // answers the same 404 as one that does not exist, as the settle endpoints do.
  app.get("/agent/tool-calls/:callId", async (c) => {
    const callId = c.req.param("callId");
    const view = await context.store.pendingCalls.view(c.get("actorId"), callId);
    if (!view) return c.json({ error: notFoundError(callId) }, 404);
    return c.json(view);
  });
  for (const action of Object.keys(SETTLES_TO) as SettleAction[]) {
    app.post(`/agent/tool-call/${action}`, async (c) => {
      const body = await readJsonBody(c.req.raw);
      if (!body.ok) return c.json({ error: body.error }, body.status);
      if (!isObject(body.value)) return c.json({ error: "The body must be a JSON object." }, 400);
      const toolCallId = field(body.value, "toolCallId");
      if (typeof toolCallId !== "string" || toolCallId === "") {
        return c.json({ error: "toolCallId must be a non-empty string" }, 400);
      }
      const outcome = await settleCall(context, {
        actorId: c.get("actorId"),
        action,
        toolCallId,
        answers: field(body.value, "answers"),
        reason: field(body.value, "reason"),
      });
      switch (outcome.kind) {
        case "settled":
          return c.json({ toolCallId, status: outcome.status, output: outcome.output });
        case "not-found":
          return c.json({ error: outcome.error }, 404);
        case "refused":
          return c.json({ error: outcome.error, ...(outcome.issues ? { issues: outcome.issues } : {}) }, 400);
        case "already-settled":
          return c.json(
            { error: outcome.error, toolCallId, status: outcome.status, output: outcome.output },
            409,
          );
      }
    });
  }
}
