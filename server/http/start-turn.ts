import type { Frame } from "prepick/core";
import type { UserMessage } from "../store/rows";
import { RUN_START } from "../store/runs";
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
  /** The caller's opt-in deadline for the run; the agent's `expiresAfterMs` too, whichever is sooner. */
  expiresAt?: Date;
}

/** How starting a turn came out: the run, or the refusal with its HTTP status. */
export type TurnStart =
  | { ok: true; runId: string; threadId: string; runStart: Frame }
  | {
      ok: false;
      status: 400 | 404 | 409 | 429;
      body: { error: string; runId?: string; field?: string; value?: string };
      /** How long to wait before trying again, in seconds (with a 429). */
      retryAfter?: number;
    };

/** The response headers of a refused start: `Retry-After` with a 429. */
export function refusalHeaders(start: Extract<TurnStart, { ok: false }>): Record<string, string> {
  return start.retryAfter !== undefined ? { "retry-after": String(start.retryAfter) } : {};
}

/**
 * The 429 of an actor past a per-actor limit (its active runs, or its starts in the last minute),
 * or undefined when it may start a turn. Costs a statement only when a limit is set.
 */
async function overLimit(context: RouteContext, actorId: string): Promise<TurnStart | undefined> {
  const { activeRuns, startsPerMinute } = context.limits;
  if (activeRuns === undefined && startsPerMinute === undefined) return undefined;
  const load = await context.store.actorLoad.of(actorId);
  if (activeRuns !== undefined && load.active >= activeRuns) {
    return {
      ok: false,
      status: 429,
      retryAfter: 5,
      body: {
        error:
          `This actor already has ${load.active} runs working, the most one actor may have at once ` +
          `(PREPICK_MAX_ACTIVE_RUNS_PER_ACTOR=${activeRuns}); wait for one to finish or cancel one.`,
        field: "activeRuns",
        value: String(activeRuns),
      },
    };
  }
  if (startsPerMinute !== undefined && load.startedLastMinute >= startsPerMinute) {
    return {
      ok: false,
      status: 429,
      retryAfter: Math.max(1, Math.ceil(load.msUntilOneLeaves / 1000)),
      body: {
        error:
          `This actor started ${load.startedLastMinute} turns in the last minute, the most one actor may ` +
          `(PREPICK_MAX_STARTS_PER_MINUTE=${startsPerMinute}); try again shortly.`,
        field: "startsPerMinute",
        value: String(startsPerMinute),
      },
    };
  }
  return undefined;
}

/** The refusal of an agent not hosted here, naming the ones that are. */
function notHosted(name: string | undefined, hosted: readonly string[]): TurnStart {
  return {
    ok: false,
    status: 400,
    body: {
      error: `agent "${name}" is not hosted here; the agents are ${hosted.map((each) => `"${each}"`).join(", ") || "none"}`,
    },
  };
}

/**
 * Starts a turn in one statement: resolves the agent (the request's, else the thread's, else the
 * first hosted), creates the thread (when new), the run, its `persist:run:start` checkpoint and
 * its `run-start` frame, refusing a thread another actor owns (404, as if it did not exist), one
 * that talks to another agent or to one not hosted here (400) and one with a run still active
 * (409). The run starts in this process at once when it has room; otherwise any process with room
 * claims it. Every endpoint that starts a turn goes through here.
 */
export async function startTurn(context: RouteContext, request: TurnRequest): Promise<TurnStart> {
  const { threadId, actorId } = request;
  const hosted = context.agents.map((candidate) => candidate.name);
  // A named agent that is not hosted is refused before the store is asked.
  if (request.agent !== undefined && !hosted.includes(request.agent)) return notHosted(request.agent, hosted);
  const defaultAgent = hosted[0];
  if (defaultAgent === undefined) return notHosted(request.agent, hosted);
  const limited = await overLimit(context, actorId);
  if (limited) return limited;
  const runId = `run-${crypto.randomUUID()}`;
  // The agents' own bounds: the statement that resolves the agent takes the sooner of its and the caller's.
  const bounds = context.agents.flatMap((agent) =>
    agent.expiresAfterMs !== undefined ? [[agent.name, agent.expiresAfterMs] as const] : [],
  );
  context.crashHooks.before(RUN_START);
  const started = await context.worker.admit(async (lease) => {
    const result = await context.store.runs.start(
      {
        threadId,
        actorId,
        agent: request.agent,
        defaultAgent,
        hostedAgents: hosted,
        runId,
        messageId: `msg-${crypto.randomUUID()}`,
        userMessage: request.message,
        ...(request.expiresAt ? { expiresAt: request.expiresAt.toISOString() } : {}),
        ...(bounds.length > 0 ? { agentDeadlines: Object.fromEntries(bounds) } : {}),
      },
      lease,
    );
    if (result.kind === "started") context.crashHooks.after(RUN_START);
    return result;
  });
  switch (started.kind) {
    case "started":
      return { ok: true, runId, threadId, runStart: started.runStart };
    case "not-found":
      return { ok: false, status: 404, body: { error: `No thread ${threadId} is yours.` } };
    case "not-hosted":
      return notHosted(started.agent, hosted);
    case "other-agent":
      return {
        ok: false,
        status: 400,
        body: { error: `thread ${threadId} talks to agent "${started.agent}", not "${request.agent}"` },
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
