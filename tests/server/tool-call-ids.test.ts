import type { SequencedFrame } from "prepick/core";
import { createServer, type PrepickServer } from "prepick/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { followRun, framesOf, startChat } from "../support/agent-api";
import { apiClient } from "../support/api-client";
import { type PostgresCluster, startPostgres } from "../support/postgres";
import { type ServerProcess, startServer } from "../support/server-process";
import { agents, promptCallIds } from "./support/call-zero-agents";

// Two people send the same message to the planner at the same moment, round after round: the
// model's answer, and so its call ids, are the same for both (and `call_0` in every response).
const ROUNDS = 4;
const TEXT = "Refactor the parser";

/** Every run's frames until it parks or finishes, in the order the chats were sent. */
async function sameMessageAtOnce(
  urls: readonly string[],
): Promise<{ actor: string; runId: string; frames: SequencedFrame[] }[]> {
  const turns = [];
  for (let round = 0; round < ROUNDS; round++) {
    const sent = ["ada", "grace", "alan", "edsger"].map(async (actor, index) => {
      const client = apiClient(urls[index % urls.length] ?? "", actor);
      const turn = await startChat(client, "planner", TEXT);
      return { actor, runId: turn.runId, frames: turn.frames };
    });
    turns.push(...(await Promise.all(sent)));
  }
  return turns;
}

/** Answers each run's question set as pre-picked and reads the run to its end. */
async function answerAll(urls: readonly string[], turns: Awaited<ReturnType<typeof sameMessageAtOnce>>) {
  return Promise.all(
    turns.map(async ({ actor, runId, frames }, index) => {
      const client = apiClient(urls[(index + 1) % urls.length] ?? "", actor);
      const [elicitation] = framesOf(frames, "elicitation");
      const answered = await client.post("/agent/tool-call/answer", { toolCallId: elicitation?.id });
      expect(answered.status, JSON.stringify(answered.body)).toBe(200);
      return followRun(client, runId, 0);
    }),
  );
}

function expectEveryRunParkedOnItsOwnCall(turns: Awaited<ReturnType<typeof sameMessageAtOnce>>): void {
  for (const { frames } of turns) {
    expect(frames.at(-1)?.frame.kind, JSON.stringify(frames.at(-1)?.frame)).toBe("run-parked");
  }
  const ids = turns.map(({ frames }) => framesOf(frames, "elicitation")[0]?.id);
  expect(new Set(ids).size).toBe(turns.length);
}

describe("tool-call ids on one process (PGlite)", () => {
  let server: PrepickServer;
  beforeAll(async () => {
    server = await createServer({ agents, port: 0, host: "127.0.0.1" });
  });
  afterAll(async () => {
    await server.close();
  });

  it("never collide when people send the same message at once to a model that reuses call_0", async () => {
    const turns = await sameMessageAtOnce([server.url]);
    expectEveryRunParkedOnItsOwnCall(turns);
    const finished = await answerAll([server.url], turns);
    for (const frames of finished)
      expect(frames.at(-1)?.frame).toEqual({ kind: "run-finish", status: "completed" });
  });

  it("send the model its own ids back, and keep the server's own in the frames", async () => {
    promptCallIds.length = 0;
    const client = apiClient(server.url, "ada");
    const turn = await startChat(client, "planner", TEXT);
    const [elicitation] = framesOf(turn.frames, "elicitation");
    expect(elicitation?.id).toBe(`call-0-0-${turn.runId}`);
    await client.post("/agent/tool-call/answer", { toolCallId: elicitation?.id });
    const rest = await followRun(client, turn.runId, 0);
    expect(rest.at(-1)?.frame).toEqual({ kind: "run-finish", status: "completed" });
    // The model's second call reads its `ask` and the answer under the id it gave them.
    expect(promptCallIds).toEqual(["call_0", "call_0"]);
  });

  it("take a new id on every turn of a thread, however the model numbers its calls", async () => {
    const client = apiClient(server.url, "ada");
    const first = await startChat(client, "planner", TEXT);
    const firstCall = framesOf(first.frames, "elicitation")[0]?.id;
    await client.post("/agent/tool-call/answer", { toolCallId: firstCall });
    await followRun(client, first.runId, 0);
    const response = await client.postStream("/agent/chat", {
      agent: "planner",
      threadId: first.threadId,
      message: { role: "user", parts: [{ type: "text", text: "Refactor the lexer" }] },
    });
    expect(response.status).toBe(200);
    const second = await followRun(client, response.headers.get("x-run-id") ?? "", 0, (frame) =>
      ["run-parked", "run-finish"].includes(frame.kind),
    );
    expect(second.at(-1)?.frame.kind).toBe("run-parked");
    const secondCall = framesOf(second, "elicitation")[0]?.id;
    expect(secondCall).toBeDefined();
    expect(secondCall).not.toBe(firstCall);
  });
});

describe("tool-call ids across two processes (PostgreSQL)", { timeout: 120_000 }, () => {
  let cluster: PostgresCluster | undefined;
  const servers: ServerProcess[] = [];
  beforeAll(async () => {
    cluster = await startPostgres("tool_call_ids");
    const env = {
      DATABASE_URL: cluster.url,
      PREPICK_AGENTS_MODULE: "tests/server/support/call-zero-agents.ts",
    };
    // The first process migrates; the second starts after it.
    servers.push(await startServer({ env }));
    servers.push(await startServer({ env }));
  }, 90_000);
  afterAll(async () => {
    await Promise.all(servers.map((server) => server.kill()));
    await cluster?.stop();
  });

  it("never collide when the same message reaches both processes at once", async () => {
    const urls = servers.map((server) => server.url);
    const turns = await sameMessageAtOnce(urls);
    expectEveryRunParkedOnItsOwnCall(turns);
    const finished = await answerAll(urls, turns);
    for (const frames of finished)
      expect(frames.at(-1)?.frame).toEqual({ kind: "run-finish", status: "completed" });
  });
});
