import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  approvals,
  type ChatTurn,
  chatBody,
  checkpointNames,
  followRun,
  framesOf,
  intakeId,
  settledOutput,
  startChat,
} from "../support/agent-api";
import { type ApiClient, type ApiResponse, apiClient } from "../support/api-client";
import { seededPgliteFolder } from "../support/pglite-folder";
import { type ServerProcess, startServer } from "../support/server-process";
import { removeTempFolders, tempFolder } from "../support/temp-folder";

let server: ServerProcess | undefined;
let ada: ApiClient;
let mallory: ApiClient;

beforeAll(async () => {
  server = await startServer({
    env: { PREPICK_DATA_DIR: await seededPgliteFolder(join(tempFolder(), "store")) },
  });
  ada = apiClient(server.url, "ada");
  mallory = apiClient(server.url, "mallory");
}, 60_000);

afterAll(async () => {
  await server?.kill();
  removeTempFolders();
});

/** What a bad request must not change: the inbox, the threads and the runs' journals. */
async function snapshot(turns: readonly ChatTurn[]) {
  return {
    approvals: await approvals(ada),
    malloryApprovals: await approvals(mallory),
    threads: await Promise.all(
      turns.map(async (turn) => (await ada.get(`/agent/threads/${turn.threadId}`)).body),
    ),
    checkpoints: await Promise.all(turns.map((turn) => checkpointNames(ada, turn.runId))),
  };
}

/** The response's error and issues as one string, for matching the message a person reads. */
function said(response: ApiResponse): string {
  return JSON.stringify(response.body);
}

function expectRefusal(response: ApiResponse, status: number | "4xx", message: RegExp) {
  // Soft, so one gap does not hide the others: every refusal is checked and reported.
  const context = `${response.status} ${said(response)}`;
  if (status === "4xx") {
    expect.soft(response.status, context).toBeGreaterThanOrEqual(400);
    expect.soft(response.status, context).toBeLessThan(500);
  } else {
    expect.soft(response.status, context).toBe(status);
  }
  const error = (response.body as { error?: unknown } | null)?.error;
  expect.soft(typeof error === "string" && error.length > 0, `a non-empty "error": ${context}`).toBe(true);
  expect.soft(said(response), context).toMatch(message);
}

function issuesOf(response: ApiResponse): { questionId: string; message: string }[] {
  return ((response.body as { issues?: { questionId: string; message: string }[] }).issues ?? []).map(
    ({ questionId, message }) => ({ questionId, message }),
  );
}

describe("bad input", { timeout: 60_000 }, () => {
  it("is refused with a 4xx and a clear message, and changes no row", async () => {
    const refactor = await startChat(ada, "refactorer", "Refactor the parser");
    const booking = await startChat(ada, "booking", "Book a table");
    const plainText = await startChat(ada, "refactorer", "Refactor the printer");
    const refactorCall = intakeId(refactor.runId);
    const bookingCall = intakeId(booking.runId);
    expect(
      framesOf(booking.frames, "elicitation")[0]?.request.questions.map((question) => question.id),
    ).toEqual(["seats", "contact", "notes"]);
    const before = await snapshot([refactor, booking, plainText]);
    expect(before.approvals.map((row) => [row.id, row.name, row.toolType, row.status])).toEqual(
      [refactor, booking, plainText].map((turn) => [
        intakeId(turn.runId),
        "ask",
        "action",
        "pending_approval",
      ]),
    );

    const answer = (body: unknown, contentType?: string) =>
      ada.post("/agent/tool-call/answer", body, contentType);
    expectRefusal(await answer(`{"toolCallId": "${refactorCall}"`), 400, /JSON/i);
    // A run of its own: a server that wrongly accepts this settles the call it names.
    expectRefusal(
      await answer({ toolCallId: intakeId(plainText.runId) }, "text/plain"),
      "4xx",
      /content-type|application\/json/i,
    );
    expectRefusal(
      await answer({ toolCallId: bookingCall, answers: { notes: ["x".repeat(70 * 1024)] } }),
      413,
      /larger than|too large|65536/i,
    );
    expectRefusal(await answer(""), 400, /toolCallId|body|JSON/i);
    expectRefusal(await answer({}), 400, /toolCallId/);
    expectRefusal(await answer({ toolCallId: 42 }), 400, /toolCallId/);
    expectRefusal(await answer({ toolCallId: ["x"] }), 400, /toolCallId/);
    expectRefusal(
      await answer({ toolCallId: "intake-no-such-run" }),
      404,
      /intake-no-such-run|not found|unknown/i,
    );
    expectRefusal(await mallory.post("/agent/tool-call/answer", { toolCallId: refactorCall }), 404, /./);
    expectRefusal(await mallory.post("/agent/tool-call/skip", { toolCallId: refactorCall }), 404, /./);
    expectRefusal(await answer({ toolCallId: refactorCall, answers: ["file"] }), 400, /answers/);
    expectRefusal(await answer({ toolCallId: refactorCall, answers: "file" }), 400, /answers/);

    const notArray = await answer({ toolCallId: refactorCall, answers: { scope: "file" } });
    expectRefusal(notArray, 400, /scope/);
    expect(issuesOf(notArray)).toContainEqual({
      questionId: "scope",
      message: 'answers["scope"] must be an array of strings, such as ["yes"]',
    });
    const unknownQuestion = await answer({ toolCallId: refactorCall, answers: { colour: ["red"] } });
    expectRefusal(unknownQuestion, 400, /colour/);
    expect(issuesOf(unknownQuestion)).toContainEqual({
      questionId: "colour",
      message: `answers["colour"] is not one of this set's questions`,
    });
    const tooMany = await answer({
      toolCallId: bookingCall,
      answers: { seats: ["10"], contact: ["a@b.example"] },
    });
    expectRefusal(tooMany, 400, /seats/);
    expect(issuesOf(tooMany)).toEqual([
      { questionId: "seats", message: 'answers["seats"] must be at most 9' },
    ]);

    // JSON.parse keeps "__proto__" as an own key; a server that merged it into an object would
    // change that object's prototype, and could then read a toolCallId the body never had.
    expectRefusal(await answer(`{"__proto__": {"toolCallId": "${refactorCall}"}}`), 400, /toolCallId/);
    expectRefusal(
      await answer(
        `{"toolCallId": "${refactorCall}", "__proto__": {"polluted": true}, "answers": {"__proto__": ["file"]}}`,
      ),
      400,
      /__proto__/,
    );
    expectRefusal(
      await answer(
        `{"toolCallId": "${refactorCall}", "answers": {"constructor": {"prototype": {"polluted": true}}}}`,
      ),
      400,
      /constructor/,
    );

    const chat = (body: unknown) => ada.post("/agent/chat", body);
    expectRefusal(await chat(chatBody("no-such-agent", "hello")), "4xx", /no-such-agent/);
    expectRefusal(await chat({ agent: "refactorer" }), 400, /message/);
    expectRefusal(await chat({ agent: "refactorer", message: { role: "user", parts: [] } }), 400, /text/);
    expectRefusal(
      await chat({ agent: "refactorer", message: { role: "user", parts: [{ type: "file", url: "x" }] } }),
      400,
      /text/,
    );
    expectRefusal(await chat('{"agent": "refactorer", "message": '), 400, /JSON/i);
    expectRefusal(await chat(`{"__proto__": {"polluted": true}, "agent": "refactorer"}`), 400, /message/);

    expect(await snapshot([refactor, booking, plainText])).toEqual(before);

    // The server still behaves normally: nothing it builds has gained a "polluted" key.
    const agents = await ada.get("/agent/agents");
    expect(agents.status).toBe(200);
    expect(said(agents)).not.toContain("polluted");
    const settled = await answer({ toolCallId: refactorCall, answers: { scope: ["file"] } });
    expect(settled.status, said(settled)).toBe(200);
    expect(settledOutput(settled.body)).toMatchObject({
      answers: { scope: ["file"], tests: ["unit"] },
      skipped: false,
      summary: expect.stringContaining("How much should I cover? → This file"),
    });
    expect((settledOutput(settled.body) as { defaulted: string[] }).defaulted).not.toContain("scope");
    expect(said(settled)).not.toContain("polluted");
    const booked = await answer({
      toolCallId: bookingCall,
      answers: { seats: ["3"], contact: ["ada@example.com"] },
    });
    expect(booked.status, said(booked)).toBe(200);
    expect(settledOutput(booked.body)).toMatchObject({
      answers: { seats: ["3"], contact: ["ada@example.com"] },
    });
  });
});

describe("fifty concurrent answers on one PGlite process", { timeout: 60_000 }, () => {
  it("settle the call once: one 200 and forty-nine 409s carrying the same stored output", async () => {
    const turn = await startChat(ada, "refactorer", "Refactor the printer");
    const toolCallId = intakeId(turn.runId);
    const responses = await Promise.all(
      Array.from({ length: 50 }, (_, index) =>
        index % 5 === 0
          ? ada.post("/agent/tool-call/skip", { toolCallId })
          : ada.post("/agent/tool-call/answer", {
              toolCallId,
              answers: { scope: [index % 2 ? "file" : "module"] },
            }),
      ),
    );
    const statuses = responses.map((response) => response.status);
    expect(statuses.filter((status) => status === 200)).toHaveLength(1);
    expect(statuses.filter((status) => status === 409)).toHaveLength(49);
    const winner = settledOutput(responses.find((response) => response.status === 200)?.body);
    for (const response of responses) expect(settledOutput(response.body)).toEqual(winner);

    const frames = await followRun(ada, turn.runId, 0);
    expect(framesOf(frames, "tool-output")).toEqual([
      { kind: "tool-output", id: toolCallId, output: winner },
    ]);
    expect(framesOf(frames, "run-finish")).toHaveLength(1);
    expect((await approvals(ada)).filter((row) => row.id === toolCallId)).toEqual([]);
  });
});
