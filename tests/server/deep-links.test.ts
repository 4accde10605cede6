import { createServer, DEMO_AGENTS, type PrepickServer } from "prepick/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { intakeId, startChat } from "../support/agent-api";
import { apiClient } from "../support/api-client";

// A call's own link: `GET /agent/tool-calls/:callId` reads it for its owner, waiting or settled;
// anyone else gets the 404 of a call that does not exist. The page it opens is the demo's.

let server: PrepickServer;

beforeAll(async () => {
  server = await createServer({ agents: DEMO_AGENTS, port: 0, host: "127.0.0.1", demoDir: "/nonexistent" });
}, 120_000);

afterAll(async () => {
  await server?.close();
});

describe("a call's deep link", { timeout: 30_000 }, () => {
  it("reads a waiting call for its owner, with what it asks, its conversation and agent, then what became of it", async () => {
    const owner = apiClient(server.url, "kim");
    const turn = await startChat(owner, "refactorer", "Refactor the parser");
    const callId = intakeId(turn.runId);
    const waiting = await owner.get(`/agent/tool-calls/${callId}`);
    expect(waiting.status).toBe(200);
    expect(waiting.body).toMatchObject({
      id: callId,
      runId: turn.runId,
      threadId: turn.threadId,
      agent: "refactorer",
      name: "ask",
      status: "pending_approval",
      output: null,
      settledAt: null,
      posted: { kind: "elicitation", id: callId, request: { questions: expect.any(Array) } },
    });
    expect((await owner.post("/agent/tool-call/skip", { toolCallId: callId })).status).toBe(200);
    const settled = await owner.get(`/agent/tool-calls/${callId}`);
    expect(settled.body).toMatchObject({ id: callId, status: "skipped", output: { skipped: true } });
    expect(typeof (settled.body as { settledAt: unknown }).settledAt).toBe("string");
  });

  it("answers someone else exactly as it answers a call that does not exist", async () => {
    const owner = apiClient(server.url, "lee");
    const turn = await startChat(owner, "operator", "Purge the pages cache");
    const approvals = await owner.get("/agent/approvals");
    const callId = (approvals.body as { approvals: { id: string }[] }).approvals[0]?.id ?? "";
    expect(callId).toMatch(/^call-/);
    const stranger = apiClient(server.url, "mallory");
    const foreign = await stranger.get(`/agent/tool-calls/${callId}`);
    const missing = await stranger.get("/agent/tool-calls/call-0-0-nothing");
    expect(foreign.status).toBe(404);
    expect(missing.status).toBe(404);
    expect(foreign.body).toEqual({ error: `No tool call ${callId} is waiting for you.` });
    expect(missing.body).toEqual({ error: "No tool call call-0-0-nothing is waiting for you." });
    // The same words the settle endpoints use for it.
    const settle = await stranger.post("/agent/tool-call/approve", { toolCallId: callId });
    expect(settle.body).toEqual(foreign.body);
    expect((await owner.get(`/agent/tool-calls/${callId}`)).body).toMatchObject({
      runId: turn.runId,
      posted: { kind: "approval-request", toolName: "purge_cache" },
    });
  });

  it("serves the page at /answer/<callId>, as at /", async () => {
    const page = await fetch(`${server.url}/answer/intake-run-1`);
    expect(page.status).toBe(200);
    expect(page.headers.get("content-type")).toContain("text/html");
    const nested = await fetch(`${server.url}/answer/intake-run-1/more`);
    expect(nested.status).toBe(404);
  });
});
