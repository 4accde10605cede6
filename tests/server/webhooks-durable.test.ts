import { type Database, openDatabase } from "prepick/server";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { type ChatTurn, intakeId, startChat } from "../support/agent-api";
import { apiClient } from "../support/api-client";
import { type PostgresCluster, startPostgres } from "../support/postgres";
import { type ServerProcess, startServer } from "../support/server-process";
import { waitFor } from "../support/wait-for";
import { repeats, startWebhookReceiver, type WebhookReceiver } from "../support/webhook-receiver";

// Webhooks across what a deployment meets: the sending process killed mid-delivery, and two
// processes on one PostgreSQL. The receiver is a real HTTP server on loopback that verifies each
// post with svix.

let cluster: PostgresCluster | undefined;
let hooks: WebhookReceiver;
const servers: ServerProcess[] = [];
const databases: Database[] = [];
let created = 0;

beforeAll(async () => {
  cluster = await startPostgres("webhooks");
  hooks = await startWebhookReceiver();
}, 120_000);

afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.kill()));
  await Promise.all(databases.splice(0).map((db) => db.close()));
  hooks.delivered.length = 0;
  hooks.attempts.length = 0;
  hooks.answer = () => 200;
});

afterAll(async () => {
  await hooks?.close();
  await cluster?.stop();
});

/** A fresh database, the env that sends its webhooks to the receiver, and a connection to read the outbox. */
async function freshStore(): Promise<{ env: Record<string, string>; db: Database }> {
  if (!cluster) throw new Error("the PostgreSQL cluster did not start");
  created += 1;
  const url = await cluster.createDatabase(`webhooks_${created}`);
  const env = {
    DATABASE_URL: url,
    PREPICK_WEBHOOK_URL: hooks.url,
    PREPICK_WEBHOOK_SECRET: hooks.secret,
    PREPICK_WEBHOOK_RETRY_MS: "100",
    // A killed sender's rows are claimed again once their lease lapses: twice this, plus 5 s.
    PREPICK_WEBHOOK_TIMEOUT_MS: "1000",
  };
  const db = await openDatabase({ url });
  databases.push(db);
  return { env, db };
}

async function start(env: Record<string, string>): Promise<ServerProcess> {
  const server = await startServer({ env, timeoutMs: 90_000 });
  servers.push(server);
  return server;
}

/** The outbox's rows: event id and status. */
async function outbox(db: Database): Promise<{ event_id: string; status: string; type: string }[]> {
  return db.query("SELECT event_id, status, type FROM prepick_webhook_outbox ORDER BY created_at");
}

describe("webhooks on PostgreSQL", { timeout: 240_000 }, () => {
  it("delivers every event after the sender is killed mid-delivery, repeating only what was in flight, and none for a rolled-back change", async () => {
    const { env, db } = await freshStore();
    // The receiver takes its time, so posts are in flight when the sender dies.
    let started = 0;
    hooks.answer = async () => {
      started += 1;
      await new Promise((resolve) => setTimeout(resolve, 300));
      return 200;
    };
    const first = await start(env);
    const person = apiClient(first.url, "ida");
    const turns: ChatTurn[] = [];
    for (let index = 0; index < 6; index++) {
      turns.push(await startChat(person, "refactorer", `Refactor module ${index}`));
    }
    for (const turn of turns.slice(0, 3)) {
      const answered = await person.post("/agent/tool-call/answer", { toolCallId: intakeId(turn.runId) });
      expect(answered.status).toBe(200);
    }
    // A change that rolls back: its trigger's row goes with it.
    await expect(
      db.transaction(async (tx) => {
        await tx.query(
          `INSERT INTO prepick_tool_calls (id, run_id, thread_id, actor_id, name, tool_type, status, input)
           VALUES ('rolled-back', $1, $2, 'ida', 'ask', 'action', 'pending_approval', '{"questions": []}')`,
          [turns[5]?.runId, turns[5]?.threadId],
        );
        throw new Error("rolled back");
      }),
    ).rejects.toThrow("rolled back");

    await waitFor("a post in flight", () => (started >= 2 ? true : undefined), { timeoutMs: 60_000 });
    await first.kill("SIGKILL");
    const atKill = await outbox(db);
    expect(atKill).toHaveLength(9);
    const unsentAtKill = new Set(
      atKill.filter((row) => row.status !== "delivered").map((row) => row.event_id),
    );
    expect(unsentAtKill.size).toBeGreaterThan(0);

    await start(env);
    const rows = await waitFor(
      "every event delivered after the restart",
      async () => {
        const now = await outbox(db);
        return now.every((row) => row.status === "delivered") ? now : undefined;
      },
      { timeoutMs: 90_000, intervalMs: 200 },
    );
    expect(hooks.refused).toEqual([]);
    const delivered = new Set(hooks.delivered.map((hook) => hook.id));
    expect(delivered).toEqual(new Set(rows.map((row) => row.event_id)));
    expect(rows.filter((row) => row.type === "call.waiting")).toHaveLength(6);
    expect(rows.filter((row) => row.type === "call.settled")).toHaveLength(3);
    // Only an event the dead process had not recorded as delivered may come twice.
    for (const id of repeats(hooks.delivered).keys()) expect(unsentAtKill.has(id), id).toBe(true);
    expect(hooks.delivered.some((hook) => hook.payload.data.callId === "rolled-back")).toBe(false);
  });

  it("delivers each event once when two processes send from one PostgreSQL", async () => {
    const { env, db } = await freshStore();
    const first = await start(env);
    const second = await start(env);
    const onFirst = apiClient(first.url, "jo");
    const onSecond = apiClient(second.url, "jo");
    const turns: ChatTurn[] = [];
    for (let index = 0; index < 8; index++) {
      const [asking, answering] = index % 2 === 0 ? [onFirst, onSecond] : [onSecond, onFirst];
      const turn = await startChat(asking, "refactorer", `Refactor module ${index}`);
      turns.push(turn);
      const answered = await answering.post("/agent/tool-call/answer", { toolCallId: intakeId(turn.runId) });
      expect(answered.status).toBe(200);
    }
    const rows = await waitFor(
      "every event delivered",
      async () => {
        const now = await outbox(db);
        return now.length === 16 && now.every((row) => row.status === "delivered") ? now : undefined;
      },
      { timeoutMs: 60_000, intervalMs: 200 },
    );
    expect(hooks.refused).toEqual([]);
    expect(repeats(hooks.delivered)).toEqual(new Map());
    expect(hooks.delivered.map((hook) => hook.id).sort()).toEqual(rows.map((row) => row.event_id).sort());
    for (const turn of turns) {
      const types = hooks.delivered
        .filter((hook) => hook.payload.data.runId === turn.runId)
        .map((hook) => hook.type)
        .sort();
      expect(types).toEqual(["call.settled", "call.waiting"]);
    }
  });
});
