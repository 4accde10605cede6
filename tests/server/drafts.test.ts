import { createServer, DEMO_AGENTS, type PrepickServer } from "prepick/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { intakeId, startChat } from "../support/agent-api";
import { apiClient } from "../support/api-client";

// Drafts on the server: what a person typed into a waiting question set, per actor and call, read
// back with the call's deep link on another device, and never taken for an answer.

let server: PrepickServer;

beforeAll(async () => {
  server = await createServer({ agents: DEMO_AGENTS, port: 0, host: "127.0.0.1", demoDir: "/nonexistent" });
}, 120_000);

afterAll(async () => {
  await server?.close();
});

describe("drafts of a waiting question set", { timeout: 30_000 }, () => {
  it("keeps the owner's draft for the call's link, never as the answer, and forgets it once answered", async () => {
    const owner = apiClient(server.url, "kim");
    const turn = await startChat(owner, "refactorer", "Refactor the parser");
    const callId = intakeId(turn.runId);
    expect((await owner.get(`/agent/tool-calls/${callId}`)).body).not.toHaveProperty("draft");

    const draft = { values: { scope: ["file"] }, index: 1 };
    const saved = await owner.post(`/agent/tool-calls/${callId}/draft`, draft);
    expect(saved.status).toBe(200);
    const later = { values: { scope: ["importers"], tests: ["e2e"] }, index: 2 };
    expect((await owner.post(`/agent/tool-calls/${callId}/draft`, later)).status).toBe(200);
    const view = await owner.get(`/agent/tool-calls/${callId}`);
    expect(view.body).toMatchObject({
      status: "pending_approval",
      draft: { ...later, updatedAt: expect.any(String) },
    });

    // Confirming with no answers takes the pre-picked ones: the draft is not an answer.
    const answered = await owner.post("/agent/tool-call/answer", { toolCallId: callId });
    expect(answered.status).toBe(200);
    const { output } = answered.body as { output: { answers: Record<string, string[]> } };
    expect(output.answers.scope).not.toEqual(["importers"]);
    expect(output.answers.tests).not.toEqual(["e2e"]);
    const settled = await owner.get(`/agent/tool-calls/${callId}`);
    expect(settled.body).not.toHaveProperty("draft");
    const tooLate = await owner.post(`/agent/tool-calls/${callId}/draft`, draft);
    expect(tooLate.status).toBe(409);
  });

  it("answers anyone else as a call that does not exist, and refuses a draft that is not one, naming the field", async () => {
    const owner = apiClient(server.url, "lee");
    const turn = await startChat(owner, "refactorer", "Refactor the lexer");
    const callId = intakeId(turn.runId);
    const stranger = apiClient(server.url, "mallory");
    const foreign = await stranger.post(`/agent/tool-calls/${callId}/draft`, { values: {}, index: 0 });
    expect(foreign.status).toBe(404);
    expect(foreign.body).toEqual({ error: `No tool call ${callId} is waiting for you.` });
    expect((await owner.get(`/agent/tool-calls/${callId}`)).body).not.toHaveProperty("draft");

    const refused = async (body: unknown) => {
      const response = await owner.post(`/agent/tool-calls/${callId}/draft`, body);
      expect(response.status).toBe(400);
      return response.body;
    };
    expect(await refused({ values: { scope: "file" }, index: 0 })).toMatchObject({
      error: "values must be an object of string arrays, by question id",
      field: "values",
      value: '{"scope":"file"}',
    });
    expect(await refused({ values: {}, index: -1 })).toMatchObject({ field: "index", value: "-1" });
    const huge = await owner.post(`/agent/tool-calls/${callId}/draft`, {
      values: { scope: ["x".repeat(40_000)] },
      index: 0,
    });
    expect(huge.status).toBe(413);
    // An approval has no draft.
    await startChat(owner, "operator", "Purge the pages cache");
    const approvals = (await owner.get("/agent/approvals")).body as {
      approvals: { id: string; name: string }[];
    };
    const approval = approvals.approvals.find((call) => call.name !== "ask");
    expect(
      (await owner.post(`/agent/tool-calls/${approval?.id}/draft`, { values: {}, index: 0 })).status,
    ).toBe(404);
  });
});
