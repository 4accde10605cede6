import { type BaseEvent, EventType, HttpAgent, type RunFinishedEvent } from "@ag-ui/client";
import { createServer, type Database, DEMO_AGENTS, openDatabase, type PrepickServer } from "prepick/server";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { AgentConfig } from "../../server/agents/types";
import {
  chatBody,
  checkpointNames,
  followRun,
  framesOf,
  intakeId,
  lastSeq,
  startChat,
} from "../support/agent-api";
import { type ApiClient, apiClient } from "../support/api-client";
import { endsStream, readFrames } from "../support/sse";
import { waitFor } from "../support/wait-for";
import { startWebhookReceiver } from "../support/webhook-receiver";

// Opt-in deadlines, in one process on the embedded store: a run bounded on the chat request or
// by its agent is cancelled as `expired` when the bound passes while it waits on a person, and
// never settled with the defaults. Two processes and a restart on PostgreSQL are in
// deadlines-durable.test.ts.

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

/** The demo agents, the operator bounded to `operatorMs` when given. */
function agents(operatorMs?: number): AgentConfig[] {
  return DEMO_AGENTS.map((agent) =>
    agent.name === "operator" && operatorMs !== undefined ? { ...agent, expiresAfterMs: operatorMs } : agent,
  );
}

async function server(options: Partial<Parameters<typeof createServer>[0]> = {}): Promise<PrepickServer> {
  const started = await createServer({
    agents: agents(),
    port: 0,
    host: "127.0.0.1",
    database: db,
    ...options,
  });
  cleanups.push(() => started.close());
  return started;
}

/** One chat message with extra request fields; reads its stream until the run parks or finishes. */
async function chatWith(client: ApiClient, agent: string, text: string, extra: Record<string, unknown>) {
  const response = await client.postStream("/agent/chat", { ...chatBody(agent, text), ...extra });
  expect(response.status).toBe(200);
  const runId = response.headers.get("x-run-id") ?? "";
  const threadId = response.headers.get("x-thread-id") ?? "";
  return { runId, threadId, frames: await readFrames(response, { until: endsStream }) };
}

/** Whether `iso` is within `slackMs` of `expected` (ms since the epoch). */
function near(iso: string | undefined, expected: number, slackMs = 5_000): boolean {
  const at = Date.parse(iso ?? "");
  return Math.abs(at - expected) <= slackMs;
}

describe("opt-in deadlines", { timeout: 30_000 }, () => {
  it("cancels a run bounded on its chat request as expired while it waits, its question set expired, never answered with the defaults", async () => {
    const app = await server();
    const person = apiClient(app.url, "ada");
    const asked = Date.now();
    const turn = await chatWith(person, "refactorer", "Refactor the parser", { expiresInMs: 1_500 });
    const callId = intakeId(turn.runId);
    const [elicitation] = framesOf(turn.frames, "elicitation");
    expect(elicitation?.id).toBe(callId);
    expect(near(elicitation?.expiresAt, asked + 1_500)).toBe(true);
    expect(framesOf(turn.frames, "run-parked")).toHaveLength(1);
    // The inbox and the call's own link carry it too, for a form to show the time left.
    const inbox = (await person.get("/agent/approvals")).body as { approvals: { posted: unknown }[] };
    expect(inbox.approvals.map((call) => call.posted)).toEqual([elicitation]);

    // The deadline passes while it waits: the run ends, typed, and the set expires.
    const rest = await followRun(person, turn.runId, lastSeq(turn.frames));
    expect(rest.map(({ frame }) => frame)).toEqual([
      { kind: "tool-denied", id: callId, reason: "expired", cancelled: true, expired: true },
      { kind: "run-finish", status: "cancelled", expired: true },
    ]);
    const view = await person.get(`/agent/tool-calls/${callId}`);
    expect(view.body).toMatchObject({
      status: "expired",
      output: { expired: true, expiresAt: elicitation?.expiresAt },
    });
    // Nobody answered for the person: no signal was recorded, and nothing ran after the intake.
    const names = await checkpointNames(person, turn.runId);
    expect(names.filter((name) => name.startsWith("signal:"))).toEqual([]);
    expect(names).not.toContain("intake:answers");
    expect((await person.get("/agent/approvals")).body).toMatchObject({ approvals: [] });

    // An answer that comes after says it expired.
    const late = await person.post("/agent/tool-call/answer", { toolCallId: callId });
    expect(late.status).toBe(409);
    expect(late.body).toMatchObject({ status: "expired" });
  });

  it("takes the sooner of the agent's bound and the request's, expires an approval undecided, and puts expiresAt on the AG-UI interrupt", async () => {
    const app = await server({ agents: agents(60_000) });
    const person = apiClient(app.url, "bo");
    const started = Date.now();
    const own = await startChat(person, "operator", "Purge the pages cache");
    const [request] = framesOf(own.frames, "approval-request");
    expect(near(request?.expiresAt, started + 60_000)).toBe(true);

    const sooner = Date.now();
    const bounded = await chatWith(person, "operator", "Purge the images cache", { expiresInMs: 1_000 });
    const [approval] = framesOf(bounded.frames, "approval-request");
    expect(near(approval?.expiresAt, sooner + 1_000)).toBe(true);
    const rest = await followRun(person, bounded.runId, lastSeq(bounded.frames));
    expect(rest.map(({ frame }) => frame)).toEqual([
      { kind: "tool-denied", id: approval?.id, reason: "expired", cancelled: true, expired: true },
      { kind: "run-finish", status: "cancelled", expired: true },
    ]);
    const late = await person.post("/agent/tool-call/approve", { toolCallId: approval?.id });
    expect(late.status).toBe(409);
    expect(late.body).toMatchObject({ status: "expired" });

    // AG-UI: the interrupt carries the deadline in its own field.
    const agent = new HttpAgent({
      url: `${app.url}/agent/ag-ui?agent=operator`,
      headers: { "x-actor-id": "bo" },
      threadId: "t-ag-ui-deadline",
    });
    agent.addMessage({ id: "m-1", role: "user", content: "Purge the fonts cache" });
    const events: BaseEvent[] = [];
    const before = Date.now();
    await agent.runAgent({}, { onEvent: ({ event }) => void events.push(event) });
    const finished = events.find((event): event is RunFinishedEvent => event.type === EventType.RUN_FINISHED);
    const outcome = finished?.outcome;
    const interrupt = outcome?.type === "interrupt" ? outcome.interrupts[0] : undefined;
    expect(interrupt?.reason).toBe("tool_approval");
    expect(near(interrupt?.expiresAt, before + 60_000)).toBe(true);
  });

  it("changes nothing without a deadline: no expiresAt anywhere, and the run waits", async () => {
    const app = await server();
    const person = apiClient(app.url, "cy");
    const turn = await startChat(person, "refactorer", "Refactor the lexer");
    const [elicitation] = framesOf(turn.frames, "elicitation");
    expect(elicitation && "expiresAt" in elicitation).toBe(false);
    const rows = await db.query<{ expires_at: unknown; status: string }>(
      "SELECT expires_at, status FROM prepick_runs WHERE id = $1",
      [turn.runId],
    );
    expect(rows).toEqual([{ expires_at: null, status: "parked" }]);
    // It is answered as ever.
    expect((await person.post("/agent/tool-call/skip", { toolCallId: intakeId(turn.runId) })).status).toBe(
      200,
    );
  });

  it("refuses a bound that is not one, naming the field, the rule and the value", async () => {
    const app = await server();
    const person = apiClient(app.url, "di");
    const refused = async (extra: Record<string, unknown>) => {
      const response = await person.post("/agent/chat", { ...chatBody("refactorer", "Hi"), ...extra });
      expect(response.status).toBe(400);
      return response.body;
    };
    expect(await refused({ expiresInMs: 10 })).toEqual({
      error: "expiresInMs must be a whole number of milliseconds from 1000 to 31536000000 (a year)",
      field: "expiresInMs",
      value: "10",
    });
    expect(await refused({ expiresInMs: "soon" })).toMatchObject({ field: "expiresInMs", value: '"soon"' });
    expect(await refused({ expiresAt: "2001-01-01T00:00:00Z" })).toMatchObject({
      error: expect.stringContaining("in the future, within a year"),
      field: "expiresAt",
      value: "2001-01-01T00:00:00Z",
    });
    expect(await refused({ expiresAt: "tomorrow" })).toMatchObject({ field: "expiresAt", value: "tomorrow" });
    expect(
      await refused({ expiresAt: new Date(Date.now() + 60_000).toISOString(), expiresInMs: 60_000 }),
    ).toMatchObject({ error: "Give expiresAt or expiresInMs, not both." });
    // Nothing was started by any of them.
    expect((await person.get("/agent/threads")).body).toMatchObject({ threads: [] });
    await expect(
      createServer({
        agents: [{ ...DEMO_AGENTS[0], name: "hasty", expiresAfterMs: 5 } as AgentConfig],
        port: 0,
        database: db,
      }),
    ).rejects.toThrow(/expiresAfterMs must be a whole number of milliseconds from 1000/);
  });

  it("takes no answer once the deadline passed, even before the run was ended for it", async () => {
    const app = await server();
    const person = apiClient(app.url, "ed");
    const turn = await chatWith(person, "refactorer", "Refactor the printer", {
      expiresAt: new Date(Date.now() + 3_600_000).toISOString(),
    });
    // The deadline moves into the past without the run being told (no status change, no notice).
    await db.query("UPDATE prepick_runs SET expires_at = now() - interval '1 second' WHERE id = $1", [
      turn.runId,
    ]);
    const answer = await person.post("/agent/tool-call/skip", { toolCallId: intakeId(turn.runId) });
    expect(answer.status).toBe(409);
    expect(answer.body).toMatchObject({ status: "expired" });
    const rest = await followRun(person, turn.runId, lastSeq(turn.frames));
    expect(rest.at(-1)?.frame).toEqual({ kind: "run-finish", status: "cancelled", expired: true });
  });

  it("reports the expiry to webhooks: the call settled as expired, the run cancelled as expired", async () => {
    const hooks = await startWebhookReceiver();
    cleanups.push(() => hooks.close());
    const app = await server({
      webhooks: [
        { url: hooks.url, secret: hooks.secret, events: ["call.waiting", "call.settled", "run.cancelled"] },
      ],
    });
    const person = apiClient(app.url, "fay");
    const turn = await chatWith(person, "refactorer", "Refactor the cache", { expiresInMs: 1_000 });
    const callId = intakeId(turn.runId);
    const [elicitation] = framesOf(turn.frames, "elicitation");
    const of = (type: string) =>
      hooks.delivered.find((hook) => hook.type === type && hook.payload.data.runId === turn.runId);
    const waiting = await waitFor("call.waiting", () => of("call.waiting"));
    expect(waiting.payload.data).toMatchObject({ callId, expiresAt: elicitation?.expiresAt });
    const settled = await waitFor("call.settled", () => of("call.settled"));
    expect(settled.payload.data).toMatchObject({
      callId,
      outcome: "expired",
      expiresAt: elicitation?.expiresAt,
    });
    const cancelled = await waitFor("run.cancelled", () => of("run.cancelled"));
    expect(cancelled.payload.data).toMatchObject({
      runId: turn.runId,
      status: "cancelled",
      expired: true,
      expiresAt: elicitation?.expiresAt,
    });
    expect(hooks.refused).toEqual([]);
  });
});
