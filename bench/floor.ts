// The lower bound the CPU-per-run rows are read against, measured in the same run on the same
// database: a server that does only the work a run requires and nothing of what makes it durable
// to replay. A chat is an HTTP request on Hono, three autocommit statements (the run, its frames,
// its end) and one model call through the same calling layer as the loop, its frames sent back
// as server-sent events. An answer is an HTTP request, a read of the pending row, the row settled,
// then the same model call and one write of its frames and the run's end.

import type { LanguageModelV4StreamPart } from "@ai-sdk/provider";
import { serve } from "@hono/node-server";
import { Hono } from "hono";
import { type Database, DEMO_AGENTS } from "prepick/server";
import { checkAgents } from "../server/agents/check-agents";
import { startModelCall } from "../server/loop/model-call";
import { createScriptedModel } from "../server/model/scripted-model";

/** A running floor server. */
export interface FloorServer {
  /** `http://127.0.0.1:<port>`. */
  url: string;
  /** Pending rows `floor-<prefix><i>` for `i` from 1 to `count`, for the answer load. */
  seedPending(prefix: string, count: number): Promise<void>;
  /** How many runs have written their frames and ended. */
  completed(): number;
  /** When the last of them ended, in ms since the epoch. */
  lastCompletedAt(): number;
  /** Stops listening. */
  close(): Promise<void>;
}

const SCHEMA = [
  "CREATE TABLE IF NOT EXISTS floor_runs (id text PRIMARY KEY, message jsonb NOT NULL, status text NOT NULL, messages jsonb)",
  "CREATE TABLE IF NOT EXISTS floor_frames (run_id text NOT NULL, seq integer NOT NULL, frame jsonb NOT NULL, PRIMARY KEY (run_id, seq))",
];

/** The frames one model call streams, as the loop names them. */
async function modelFrames(stream: ReadableStream<LanguageModelV4StreamPart>): Promise<object[]> {
  const frames: object[] = [{ kind: "step-start", step: 0 }];
  const reader = stream.getReader();
  for (let next = await reader.read(); !next.done; next = await reader.read()) {
    const part = next.value;
    if (part.type === "text-start" || part.type === "text-end") frames.push({ kind: part.type, id: part.id });
    else if (part.type === "text-delta") frames.push({ kind: part.type, id: part.id, delta: part.delta });
  }
  frames.push({ kind: "step-finish", step: 0 });
  return frames;
}

/** Starts the floor server on a free loopback port, over `db`, with a model that waits `latencyMs`. */
export async function startFloor(db: Database, latencyMs: number): Promise<FloorServer> {
  for (const statement of SCHEMA) await db.query(statement);
  const model = createScriptedModel({ latencyMs });
  const agent = checkAgents(DEMO_AGENTS, { ask: false }).find((each) => each.name === "planner");
  if (!agent) throw new Error("the demo's planner agent is missing");
  let completed = 0;
  let lastCompletedAt = 0;
  const run = async (runId: string, text: string): Promise<object[]> => {
    const messages = [{ role: "user" as const, content: [{ type: "text" as const, text }] }];
    const frames = await modelFrames(await startModelCall({ model, agent, messages }));
    await db.query(
      `WITH added AS (
         INSERT INTO floor_frames (run_id, seq, frame)
         SELECT $1, item.ordinality, item.value FROM jsonb_array_elements($2::jsonb) WITH ORDINALITY AS item
         RETURNING seq)
       UPDATE floor_runs SET status = 'completed', messages = $3::jsonb
       WHERE id = $1 AND (SELECT count(*) FROM added) > 0`,
      [runId, JSON.stringify(frames), JSON.stringify(messages)],
    );
    completed += 1;
    lastCompletedAt = performance.timeOrigin + performance.now();
    return frames;
  };

  const app = new Hono();
  app.post("/agent/chat", async (c) => {
    const body = (await c.req.json()) as { message: { parts: { text: string }[] } };
    const runId = `floor-${crypto.randomUUID()}`;
    const text = body.message.parts.map((part) => part.text).join("");
    await db.query("INSERT INTO floor_runs (id, message, status) VALUES ($1, $2::jsonb, 'running')", [
      runId,
      JSON.stringify(body.message),
    ]);
    const encoder = new TextEncoder();
    const stream = new ReadableStream<Uint8Array>({
      async start(controller) {
        const frames = await run(runId, text).catch(() => []);
        for (const [index, frame] of frames.entries()) {
          controller.enqueue(encoder.encode(`id: ${index + 1}\ndata: ${JSON.stringify(frame)}\n\n`));
        }
        controller.close();
      },
    });
    return new Response(stream, { headers: { "content-type": "text/event-stream", "x-run-id": runId } });
  });
  app.post("/agent/tool-call/answer", async (c) => {
    const { toolCallId } = (await c.req.json()) as { toolCallId: string };
    const [row] = await db.query<{ message: { parts: { text: string }[] } }>(
      "SELECT message FROM floor_runs WHERE id = $1",
      [toolCallId],
    );
    if (!row) return c.json({ error: "unknown" }, 404);
    const settled = await db.query(
      "UPDATE floor_runs SET status = 'running' WHERE id = $1 AND status = 'parked' RETURNING id",
      [toolCallId],
    );
    if (settled.length === 0) return c.json({ error: "settled" }, 409);
    void run(toolCallId, row.message.parts.map((part) => part.text).join(""));
    return c.json({ toolCallId, status: "answered" });
  });

  const server = await new Promise<ReturnType<typeof serve>>((resolve) => {
    const started = serve({ fetch: app.fetch, port: 0, hostname: "127.0.0.1" }, () => resolve(started));
  });
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}`,
    async seedPending(prefix, count) {
      await db.query(
        `INSERT INTO floor_runs (id, message, status)
         SELECT 'floor-' || $1 || i, '{"parts":[{"type":"text","text":"Say hello"}]}'::jsonb, 'parked'
         FROM generate_series(1, $2::int) AS i`,
        [prefix, count],
      );
    },
    completed: () => completed,
    lastCompletedAt: () => lastCompletedAt,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        (server as { closeAllConnections?: () => void }).closeAllConnections?.();
      }),
  };
}
