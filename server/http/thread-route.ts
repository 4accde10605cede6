import { yieldToIo } from "../loop/yield-to-io";
import type { RunStatus } from "../store/rows";
import type { ThreadTurn } from "../store/runs";
import type { Store } from "../store/store";
import type { AgentApp, RouteContext } from "./context";
import { jsonStreamResponse } from "./json-stream";
import { encodeCursor, readPageQuery } from "./page-query";

// How many stored frames one read takes: small enough that other requests get the event loop
// (and an embedded store's single connection) between reads.
const FRAME_BATCH = 100;
const CURSOR_KIND = "turn";
const MAX_TURN = 2_147_483_647;

/** How a run shows on its assistant message. */
function messageStatus(status: RunStatus): "running" | "parked" | "completed" | "failed" | "cancelled" {
  return status === "ready" ? "running" : status;
}

/**
 * The thread's JSON in pieces: its fields, then each turn's user message and assistant message,
 * the frames read a batch at a time as the client takes them. `lastSeq` follows the frames, so
 * it is the last one sent.
 */
async function* threadPieces(
  store: Store,
  head: { threadId: string; agent: string; nextCursor: string | null },
  turns: readonly ThreadTurn[],
): AsyncGenerator<string> {
  yield `${JSON.stringify(head).slice(0, -1)},"messages":[`;
  for (const [index, turn] of turns.entries()) {
    const assistant = {
      id: turn.messageId,
      role: "assistant",
      runId: turn.runId,
      status: messageStatus(turn.status),
    };
    yield `${index === 0 ? "" : ","}${JSON.stringify(turn.userMessage)},${JSON.stringify(assistant).slice(0, -1)},"frames":[`;
    let after = 0;
    for (;;) {
      // An embedded store answers without reaching the I/O phase: between reads, let other
      // requests in, or twenty large reads hold back every one of them.
      await yieldToIo();
      const frames = await store.frames.afterAsJson(turn.runId, after, FRAME_BATCH);
      for (const frame of frames) {
        yield `${after === 0 ? "" : ","}{"seq":${frame.seq},"frame":${frame.json}}`;
        after = frame.seq;
      }
      if (frames.length < FRAME_BATCH) break;
    }
    yield `],"lastSeq":${after}}`;
  }
  yield "]}";
}

/** A turn cursor's position: the first turn of the page before. */
function readTurnCursor(decoded: Record<string, unknown>): number | undefined {
  const { turn } = decoded;
  // A turn is a PostgreSQL integer: a larger one would fail in the statement rather than here.
  return Number.isInteger(turn) && (turn as number) >= 0 && (turn as number) <= MAX_TURN
    ? (turn as number)
    : undefined;
}

/**
 * `GET /agent/threads/:threadId?cursor=&limit=`: a thread's messages for hydrating a page, a page
 * of turns at a time. The first page holds the latest `limit` turns (default 50, at most 200),
 * oldest first, as `{ threadId, agent, messages, nextCursor }`; `nextCursor` reads the turns
 * before them, null when there are none. The body is streamed, read as the client takes it.
 */
export function threadRoute(app: AgentApp, context: RouteContext): void {
  app.get("/agent/threads/:threadId", async (c) => {
    const threadId = c.req.param("threadId");
    const page = readPageQuery(c.req.query(), CURSOR_KIND, readTurnCursor);
    if (!page.ok) return c.json({ error: page.error, field: page.field, value: page.value }, 400);
    const before = page.cursor as number | undefined;
    const thread = await context.store.threads.get(threadId);
    if (!thread || thread.actorId !== c.get("actorId")) {
      return c.json({ error: `No thread ${threadId} is yours.` }, 404);
    }
    const { turns, older } = await context.store.runs.turnsOfThread(threadId, before, page.limit);
    const first = turns[0];
    const nextCursor = older && first ? encodeCursor(CURSOR_KIND, { turn: first.turn }) : null;
    return jsonStreamResponse({
      pieces: threadPieces(context.store, { threadId, agent: thread.agent, nextCursor }, turns),
      closing: context.closing,
    });
  });
}
