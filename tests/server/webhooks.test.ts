import { createServer, type Database, DEMO_AGENTS, openDatabase, type PrepickServer } from "prepick/server";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { type ChatTurn, intakeId, startChat } from "../support/agent-api";
import { apiClient } from "../support/api-client";
import { waitFor } from "../support/wait-for";
import { repeats, startWebhookReceiver, type WebhookReceiver } from "../support/webhook-receiver";

// Webhooks, in one process on the embedded store: a real HTTP receiver on loopback verifies every
// post with svix. Crashes and two processes on PostgreSQL are in webhooks-durable.test.ts.

// One embedded store for the file (opening one is the slow part); each test's server registers
// its own endpoints, which drops the previous test's.
let db: Database;
beforeAll(async () => {
  db = await openDatabase();
}, 120_000);
afterAll(async () => {
  await db.close();
});

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function receiver(): Promise<WebhookReceiver> {
  const started = await startWebhookReceiver();
  cleanups.push(() => started.close());
  return started;
}

async function server(options: Partial<Parameters<typeof createServer>[0]> = {}): Promise<PrepickServer> {
  const started = await createServer({
    agents: DEMO_AGENTS,
    port: 0,
    host: "127.0.0.1",
    database: db,
    ...options,
  });
  cleanups.push(() => started.close());
  return started;
}

describe("webhooks", { timeout: 30_000 }, () => {
  it("tells an endpoint when a question set waits and when it is answered, signed, with what it asks and a link", async () => {
    const hooks = await receiver();
    const app = await server({
      webhooks: [{ url: hooks.url, secret: hooks.secret }],
      publicUrl: "https://agents.example.com",
    });
    const person = apiClient(app.url, "ada");
    const turn = await startChat(person, "refactorer", "Refactor the parser");
    const callId = intakeId(turn.runId);
    const waiting = await waitFor("call.waiting", () =>
      hooks.delivered.find((hook) => hook.type === "call.waiting"),
    );
    expect(waiting.payload.data).toMatchObject({
      actorId: "ada",
      threadId: turn.threadId,
      agent: "refactorer",
      runId: turn.runId,
      callId,
      kind: "questions",
      asked: {
        preamble: expect.stringContaining("Three questions before I start"),
        questions: [
          { id: "scope", prompt: "How much should I cover?" },
          { id: "tests", prompt: "Which tests should I touch?" },
          { id: "api", prompt: "May I change the public API?" },
        ],
      },
      link: `https://agents.example.com/answer/${callId}`,
      conversationLink: `https://agents.example.com/?agent=refactorer&thread=${turn.threadId}`,
    });
    expect(waiting.id).toMatch(/^msg_[0-9a-f]{32}$/);
    expect(new Date(waiting.payload.timestamp).getTime()).not.toBeNaN();

    expect((await person.post("/agent/tool-call/answer", { toolCallId: callId })).status).toBe(200);
    const settled = await waitFor("call.settled", () =>
      hooks.delivered.find((hook) => hook.type === "call.settled"),
    );
    expect(settled.payload.data).toMatchObject({ callId, outcome: "answered", kind: "questions" });
    expect(settled.id).not.toBe(waiting.id);
    expect(hooks.refused).toEqual([]);
    // Runs' ends were not asked for.
    await waitFor("the outbox to settle", async () =>
      (await app.webhooks.list({ status: "pending" })).length === 0 ? true : undefined,
    );
    expect(hooks.delivered.map((hook) => hook.type)).toEqual(["call.waiting", "call.settled"]);
  });

  it("names the tool and its description for an approval, and reports a run's end when asked", async () => {
    const hooks = await receiver();
    const app = await server({
      webhooks: [
        { url: hooks.url, secret: hooks.secret, events: ["call.waiting", "call.settled", "run.finished"] },
      ],
    });
    const person = apiClient(app.url, "bea");
    const turn = await startChat(person, "operator", "Purge the pages cache");
    const waiting = await waitFor("call.waiting", () =>
      hooks.delivered.find((hook) => hook.type === "call.waiting"),
    );
    const callId = waiting.payload.data.callId as string;
    expect(waiting.payload.data).toMatchObject({
      actorId: "bea",
      agent: "operator",
      runId: turn.runId,
      kind: "approval",
      asked: {
        tool: {
          name: "purge_cache",
          description: "Purges one of the site's caches. Visitors see slower pages until it warms up again.",
          input: expect.objectContaining({ cache: "pages" }),
        },
      },
      // No publicUrl: the links point at the server itself.
      link: `${app.url}/answer/${callId}`,
    });
    expect(
      (await person.post("/agent/tool-call/reject", { toolCallId: callId, reason: "Not now" })).status,
    ).toBe(200);
    const finished = await waitFor("run.finished", () =>
      hooks.delivered.find((hook) => hook.type === "run.finished"),
    );
    expect(finished.payload.data).toMatchObject({
      runId: turn.runId,
      status: "completed",
      agent: "operator",
    });
    const settled = hooks.delivered.find((hook) => hook.type === "call.settled");
    expect(settled?.payload.data).toMatchObject({ callId, outcome: "rejected" });
    expect(hooks.refused).toEqual([]);
  });

  it("retries an endpoint that fails for a while, shows it failing with the last status, then delivers each event once", async () => {
    const hooks = await receiver();
    let failing = true;
    hooks.answer = () => (failing ? 503 : 204);
    const app = await server({
      webhooks: [{ url: hooks.url, secret: hooks.secret }],
      webhookDelivery: { retryFirstMs: 50, retryMaxMs: 200 },
    });
    const person = apiClient(app.url, "cy");
    const turns: ChatTurn[] = [];
    for (const text of ["Refactor the parser", "Refactor the lexer", "Refactor the printer"]) {
      turns.push(await startChat(person, "refactorer", text));
    }
    const stuck = await waitFor("three events failing, retried", async () => {
      const rows = await app.webhooks.list({ status: "failing" });
      return rows.length === 3 && rows.every((row) => row.attempts >= 2) ? rows : undefined;
    });
    expect(stuck.every((row) => row.lastStatus === 503 && row.lastError?.includes("503"))).toBe(true);
    expect(stuck.every((row) => row.nextAttemptAt !== null && row.deliveredAt === null)).toBe(true);
    expect(hooks.delivered).toEqual([]);

    failing = false;
    const delivered = await waitFor("every event delivered", async () => {
      const rows = await app.webhooks.list({ status: "delivered" });
      return rows.length === 3 ? rows : undefined;
    });
    expect(delivered.every((row) => row.lastStatus === 204 && row.deliveredAt !== null)).toBe(true);
    expect(new Set(hooks.delivered.map((hook) => hook.payload.data.runId))).toEqual(
      new Set(turns.map((turn) => turn.runId)),
    );
    expect(hooks.delivered).toHaveLength(3);
    expect(repeats(hooks.delivered)).toEqual(new Map());
    // Every attempt of one event carries the same id.
    for (const row of delivered) {
      const attempts = hooks.attempts.filter((hook) => hook.id === row.eventId);
      expect(attempts.length).toBe(row.attempts);
      expect(attempts.at(-1)?.status).toBe(204);
    }
  });

  it("writes no event for a change that rolls back", async () => {
    const hooks = await receiver();
    const app = await server({ webhooks: [{ url: hooks.url, secret: hooks.secret }] });
    const person = apiClient(app.url, "dee");
    const turn = await startChat(person, "planner", "Say hello");
    await expect(
      db.transaction(async (tx) => {
        await tx.query(
          `INSERT INTO prepick_tool_calls (id, run_id, thread_id, actor_id, name, tool_type, status, input)
           VALUES ('rolled-back', $1, $2, 'dee', 'ask', 'action', 'pending_approval', '{"questions": []}')`,
          [turn.runId, turn.threadId],
        );
        const written = await tx.query("SELECT count(*)::int AS n FROM prepick_webhook_outbox");
        expect(written[0]?.n).toBe(1);
        throw new Error("the change fails after the row was written");
      }),
    ).rejects.toThrow("the change fails");
    expect(await app.webhooks.list()).toEqual([]);
    // A change that commits after it is still delivered: the sender was awake all along.
    const asked = await startChat(person, "refactorer", "Refactor the parser");
    await waitFor("the next event", () =>
      hooks.delivered.find((hook) => hook.payload.data.runId === asked.runId),
    );
    expect(hooks.delivered.map((hook) => hook.payload.data.callId)).toEqual([intakeId(asked.runId)]);
  });

  it("writes nothing at all with no webhook configured", async () => {
    const app = await server();
    const person = apiClient(app.url, "eve");
    const turn = await startChat(person, "refactorer", "Refactor the parser");
    await person.post("/agent/tool-call/answer", { toolCallId: intakeId(turn.runId) });
    const rows = await db.query("SELECT count(*)::int AS n FROM prepick_webhook_outbox");
    expect(rows[0]?.n).toBe(0);
    const endpoints = await db.query("SELECT count(*)::int AS n FROM prepick_webhook_endpoints");
    expect(endpoints[0]?.n).toBe(0);
  });

  it("refuses a configuration it cannot sign or send, naming the field, the rule and the value", async () => {
    const start = (webhooks: unknown) =>
      createServer({ agents: DEMO_AGENTS, port: 0, host: "127.0.0.1", webhooks: webhooks as never });
    await expect(start([{ url: "ftp://example.com", secret: "whsec_x" }])).rejects.toThrow(
      'webhooks[0].url must be an absolute http: or https: URL, not "ftp://example.com"',
    );
    await expect(start([{ url: "https://example.com/hooks", secret: "hunter2" }])).rejects.toThrow(
      "webhooks[0].secret must be whsec_ followed by 24 to 64 bytes in base64",
    );
    await expect(
      start([{ url: "https://example.com/hooks", secret: `whsec_${"a".repeat(44)}`, events: ["call.sent"] }]),
    ).rejects.toThrow('webhooks[0].events holds "call.sent", which is not one of call.waiting');
  });
});
