import type { AgentApp, RouteContext } from "../context";
import { readJsonBody } from "../read-body";
import { refusalHeaders, startTurn, type TurnStart } from "../start-turn";
import { agUiStreamResponse } from "./ag-ui-stream";
import { readRunInput } from "./run-input";
import { settleResume } from "./settle-resume";

/**
 * `POST /agent/ag-ui`: the hosted agents over AG-UI 1.0, on the same durable loop as
 * `POST /agent/chat`. The body is a `RunAgentInput`; `?agent=` names the agent as `/agent/chat`'s
 * `agent` does. Without `resume`, the input's last message (the person's) starts a turn. With
 * `resume`, its entries settle the parked call through the one settle operation, and the run's
 * continuation streams; a person's message sent after the resumed interrupts starts the next turn
 * once the run has finished. Another actor's thread does not exist (404), as for `/agent/chat`.
 * See docs/ag-ui.md for the event mapping.
 */
export function agUiRoute(app: AgentApp, context: RouteContext): void {
  app.post("/agent/ag-ui", async (c) => {
    const body = await readJsonBody(c.req.raw);
    if (!body.ok) return c.json({ error: body.error }, body.status);
    const read = readRunInput(body.value);
    if (!read.ok) return c.json({ error: read.refusal.error, path: read.refusal.path }, 400);
    const { input, resume, lastUserMessage } = read.value;
    const actorId = c.get("actorId");
    const agent = c.req.query("agent");
    const { threadId } = input;
    const turn = (): Promise<TurnStart> =>
      startTurn(context, {
        actorId,
        threadId,
        message: lastUserMessage as NonNullable<typeof lastUserMessage>,
        ...(agent !== undefined ? { agent } : {}),
      });
    const headers = (runId: string) => ({ "x-run-id": runId, "x-thread-id": threadId });

    if (resume.length === 0) {
      const started = await turn();
      if (!started.ok) return c.json(started.body, started.status, refusalHeaders(started));
      return agUiStreamResponse(context, {
        input,
        start: { run: { runId: started.runId, before: [] } },
        headers: headers(started.runId),
      });
    }

    const thread = await context.store.threads.get(threadId);
    if (!thread || thread.actorId !== actorId)
      return c.json({ error: `No thread ${threadId} is yours.` }, 404);
    const settled = await settleResume(context, { actorId, threadId, resume });
    if (!settled.ok) return agUiStreamResponse(context, { input, start: { error: settled.refusal } });
    // The person wrote past the interrupts: their message is the next turn, once this one ends.
    const known = new Set((await context.store.runs.ofThread(threadId)).map((run) => run.userMessage.id));
    const message = lastUserMessage && !known.has(lastUserMessage.id) ? lastUserMessage : undefined;
    return agUiStreamResponse(context, {
      input,
      start: { run: settled.value },
      ...(message
        ? {
            next: async () => {
              const started = await turn();
              return started.ok
                ? { run: { runId: started.runId, before: [] } }
                : { error: { message: started.body.error, code: `http_${started.status}` } };
            },
          }
        : {}),
      headers: headers(settled.value.runId),
    });
  });
}
