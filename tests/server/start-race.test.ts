import { createServer, DEMO_AGENTS, openDatabase, type PrepickServer } from "prepick/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chatBody } from "../support/agent-api";
import { type ApiResponse, apiClient } from "../support/api-client";
import { type PostgresCluster, startPostgres } from "../support/postgres";

// A run starts in one statement with no row lock: the unique index on a thread's active run is what
// decides two starts racing on one thread. These races run on PostgreSQL, where both statements
// really run at once (on two connections of the pool).
const ROUNDS = 12;

let cluster: PostgresCluster | undefined;
let server: PrepickServer | undefined;

beforeAll(async () => {
  cluster = await startPostgres("start_race");
  server = await createServer({
    agents: DEMO_AGENTS,
    database: await openDatabase({ url: cluster.url }),
    port: 0,
    host: "127.0.0.1",
  });
}, 60_000);

afterAll(async () => {
  await server?.close();
  await server?.store.db.close();
  await cluster?.stop();
});

function as(actor: string) {
  if (!server) throw new Error("the server did not start");
  return apiClient(server.url, actor);
}

/** Starts a refactorer turn on `threadId`; its intake parks it, so the run stays active. */
const start = (actor: string, threadId: string, agent = "refactorer"): Promise<ApiResponse> =>
  as(actor).post("/agent/chat", { ...chatBody(agent, `Refactor ${threadId}`), threadId });

/** The run ids of a thread, read back from the store. */
async function runsOf(threadId: string): Promise<string[]> {
  const rows = await server?.store.db.query<{ id: string }>(
    "SELECT id FROM prepick_runs WHERE thread_id = $1",
    [threadId],
  );
  return (rows ?? []).map((row) => row.id);
}

describe("two starts on one thread at once, on PostgreSQL", { timeout: 120_000 }, () => {
  it("starts exactly one run on a new thread; the other request gets a 409 naming it", async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const threadId = `race-new-${round}`;
      const responses = await Promise.all([start("rae", threadId), start("rae", threadId)]);
      const started = responses.filter((response) => response.status === 200);
      const busy = responses.filter((response) => response.status === 409);
      expect(started, JSON.stringify(responses.map((r) => [r.status, r.body]))).toHaveLength(1);
      expect(busy).toHaveLength(1);
      const runId = started[0]?.headers.get("x-run-id");
      expect(busy[0]?.body).toMatchObject({ runId });
      expect(await runsOf(threadId)).toEqual([runId]);
    }
  });

  it("starts exactly one run on a thread whose last turn ended", async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const threadId = `race-next-${round}`;
      // A planner turn finishes by itself: the thread then has no active run.
      const first = await as("rae").post("/agent/chat", { ...chatBody("planner", "Say hello"), threadId });
      expect(first.status).toBe(200);
      const firstRun = first.headers.get("x-run-id") ?? "";
      await expect.poll(async () => (await server?.store.runs.get(firstRun))?.status).toBe("completed");
      const responses = await Promise.all([
        start("rae", threadId, "planner"),
        start("rae", threadId, "planner"),
      ]);
      const statuses = responses.map((response) => response.status).sort();
      expect(statuses, JSON.stringify(responses.map((r) => r.body))).toEqual([200, 409]);
      const runId = responses.find((response) => response.status === 200)?.headers.get("x-run-id");
      expect(responses.find((response) => response.status === 409)?.body).toMatchObject({ runId });
      expect((await runsOf(threadId)).sort()).toEqual([firstRun, runId].sort());
    }
  });

  it("gives a new thread to one of two actors racing for its id; the other gets a 404, never the run's id", async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const threadId = `race-actors-${round}`;
      const [ada, bob] = await Promise.all([start("ada", threadId), start("bob", threadId)]);
      const statuses = [ada.status, bob.status].sort();
      expect(statuses, JSON.stringify([ada.body, bob.body])).toEqual([200, 404]);
      const refused = ada.status === 404 ? ada : bob;
      expect(refused.body).toEqual({ error: `No thread ${threadId} is yours.` });
      expect(await runsOf(threadId)).toHaveLength(1);
    }
  });

  it("still answers 404 for another actor's thread and 400 for another agent's", async () => {
    const threadId = "race-owned";
    expect((await start("ada", threadId)).status).toBe(200);
    const foreign = await start("bob", threadId);
    expect(foreign.status).toBe(404);
    expect(foreign.body).toEqual({ error: `No thread ${threadId} is yours.` });
    const otherAgent = await as("ada").post("/agent/chat", { ...chatBody("planner", "Plan it"), threadId });
    expect(otherAgent.status).toBe(400);
    expect(otherAgent.body).toEqual({
      error: `thread ${threadId} talks to agent "refactorer", not "planner"`,
    });
    expect(await runsOf(threadId)).toHaveLength(1);
  });
});
