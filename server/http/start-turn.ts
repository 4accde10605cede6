import type { UserMessage } from "../store/rows";
import type { RouteContext } from "./context";

/** What a client-chosen thread or message id may be: 1 to 200 letters, digits or `. _ : -`. */
export const CLIENT_ID = /^[\w.:-]{1,200}$/;

/** A turn to start: who asks, which agent (else the thread's, else the first hosted), on which thread. */
export interface TurnRequest {
  /** The acting actor; must own the thread when it exists. */
  actorId: string;
  /** The agent named by the request, if any. */
  agent?: string;
  /** The thread; a new id starts a thread. */
  threadId: string;
  /** The person's message. */
  message: UserMessage;
}

/** How starting a turn came out: the run, or the refusal with its HTTP status. */
export type TurnStart =
  | { ok: true; runId: string; threadId: string }
  | { ok: false; status: 400 | 404 | 409; body: { error: string; runId?: string } };

/**
 * Starts a turn: resolves the agent, then creates the thread (when new) and its run in one
 * statement, refusing a thread another actor owns (404, as if it did not exist), one that talks
 * to another agent (400) and one with a run still active (409). The run starts in this process
 * at once when it has room; otherwise any process with room claims it. Every endpoint that
 * starts a turn goes through here.
 */
export async function startTurn(context: RouteContext, request: TurnRequest): Promise<TurnStart> {
  const { threadId, actorId } = request;
  const existing = request.agent === undefined ? await context.store.threads.get(threadId) : undefined;
  const name = request.agent ?? existing?.agent ?? context.agents[0]?.name;
  const agent = context.agents.find((candidate) => candidate.name === name);
  if (!agent) {
    const known = context.agents.map((candidate) => `"${candidate.name}"`).join(", ");
    return {
      ok: false,
      status: 400,
      body: { error: `agent "${name}" is not hosted here; the agents are ${known || "none"}` },
    };
  }
  const runId = `run-${crypto.randomUUID()}`;
  const started = await context.worker.admit((lease) =>
    context.store.runs.start(
      {
        threadId,
        createThread: true,
        actorId,
        agent: agent.name,
        runId,
        messageId: `msg-${crypto.randomUUID()}`,
        userMessage: request.message,
      },
      lease,
    ),
  );
  switch (started.kind) {
    case "started":
      return { ok: true, runId, threadId };
    case "not-found":
      return { ok: false, status: 404, body: { error: `No thread ${threadId} is yours.` } };
    case "other-agent":
      return {
        ok: false,
        status: 400,
        body: { error: `thread ${threadId} talks to agent "${started.agent}", not "${agent.name}"` },
      };
    case "busy":
      return {
        ok: false,
        status: 409,
        body: {
          error: `thread ${threadId} already has run ${started.runId} running or waiting for answers; settle or cancel it first`,
          runId: started.runId,
        },
      };
  }
}
