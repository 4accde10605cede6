import { notFoundError, SETTLES_TO, type SettleAction, settleCall } from "../loop/settle-call";
import type { AgentApp, RouteContext } from "./context";
import { field, isObject, readJsonBody } from "./read-body";

/** The largest draft body: a question set's typed values, with room to spare. */
const MAX_DRAFT_BYTES = 32_768;

type DraftBody =
  | { ok: true; draft: { values: Record<string, string[]>; index: number } }
  | { ok: false; error: string; field: string; value: string };

/** A draft body: `{ values: { [questionId]: string[] }, index }`, or the field it breaks. */
function readDraft(body: unknown): DraftBody {
  const refuse = (error: string, name: string, value: unknown): DraftBody => ({
    ok: false,
    error,
    field: name,
    value: JSON.stringify(value ?? null).slice(0, 100),
  });
  if (!isObject(body)) return refuse("The body must be a JSON object { values, index }.", "body", body);
  const values = field(body, "values");
  const index = field(body, "index");
  const valid =
    isObject(values) &&
    Object.values(values).every(
      (list) => Array.isArray(list) && list.every((item) => typeof item === "string"),
    );
  if (!valid) return refuse("values must be an object of string arrays, by question id", "values", values);
  if (!Number.isSafeInteger(index) || (index as number) < 0) {
    return refuse("index must be a whole number, 0 or more", "index", index);
  }
  return { ok: true, draft: { values: values as Record<string, string[]>, index: index as number } };
}

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
    const actorId = c.get("actorId");
    const view = await context.store.pendingCalls.view(actorId, callId);
    if (!view) return c.json({ error: notFoundError(callId) }, 404);
    // A waiting question set comes with what the person typed into it elsewhere, if anything.
    const draft =
      view.status === "pending_approval" && view.name === "ask"
        ? await context.store.drafts.get(actorId, callId)
        : undefined;
    return c.json({ ...view, ...(draft ? { draft } : {}) });
  });
  // What the person typed into a waiting question set, kept for their other devices. Never an
  // answer: only answer and skip settle a set.
  app.post("/agent/tool-calls/:callId/draft", async (c) => {
    const callId = c.req.param("callId");
    const body = await readJsonBody(c.req.raw, MAX_DRAFT_BYTES);
    if (!body.ok) return c.json({ error: body.error }, body.status);
    const draft = readDraft(body.value);
    if (!draft.ok) return c.json({ error: draft.error, field: draft.field, value: draft.value }, 400);
    const saved = await context.store.drafts.save(c.get("actorId"), callId, draft.draft);
    if (saved === "not-found") return c.json({ error: notFoundError(callId) }, 404);
    if (saved === "not-waiting")
      return c.json({ error: `${callId} no longer waits: its draft is not kept` }, 409);
    return c.json({ callId, saved: true });
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
