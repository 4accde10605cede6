import type { ElicitationOutcome } from "prepick/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { settlementFrames, signalName } from "./loop/settlement";
import type { PrepickServer } from "./server";
import { call, chat, follow, frameOf, kinds, startServer, usageCount } from "./testing/harness";
import { asker, booker, plain, refactorer } from "./testing/test-agents";

let server: PrepickServer;

beforeAll(async () => {
  server = await startServer({ agents: [refactorer, booker, asker, plain] });
}, 60_000);
afterAll(async () => {
  await server.close();
}, 60_000);

describe("an intake, end to end", () => {
  it("posts the questions, parks, takes an empty answer, and lets the model read the outcome", async () => {
    const first = await chat(server, "ada", "Tidy up the parser");
    expect(first.status).toBe(200);
    expect(kinds(first.frames)).toEqual(["run-start", "elicitation", "run-parked"]);
    const callId = `intake-${first.runId}`;
    expect(frameOf(first.frames, "elicitation")).toMatchObject({
      id: callId,
      request: { source: "intake", questions: [{ id: "scope" }, { id: "tests" }] },
    });
    expect(frameOf(first.frames, "run-parked")?.waitingFor).toEqual([callId]);

    const inbox = await call(server, "GET", "/agent/approvals", "ada");
    expect(inbox.body.approvals).toEqual([
      expect.objectContaining({ id: callId, name: "ask", toolType: "action", status: "pending_approval" }),
    ]);

    const answered = await call(server, "POST", "/agent/tool-call/answer", "ada", { toolCallId: callId });
    expect(answered.status).toBe(200);
    const outcome = answered.body.output as ElicitationOutcome;
    expect(answered.body.status).toBe("answered");
    expect(outcome.defaulted).toEqual(["scope", "tests"]);
    expect(outcome.answers).toEqual({ scope: ["module"], tests: ["unit"] });

    const lastSeq = first.frames.at(-1)?.seq ?? 0;
    const rest = await follow(server, "ada", first.runId, lastSeq);
    expect(kinds(rest)[0]).toBe("tool-output");
    expect(frameOf(rest, "tool-output")).toEqual({ kind: "tool-output", id: callId, output: outcome });
    expect(kinds(rest)).toContain("text-delta");
    expect(rest.at(-1)?.frame).toEqual({ kind: "run-finish", status: "completed" });
    const text = rest.flatMap(({ frame }) => (frame.kind === "text-delta" ? [frame.delta] : [])).join("");
    expect(text).toContain("The whole module");
    expect(rest[0]?.seq).toBe(lastSeq + 1);

    const journal = await call(server, "GET", `/agent/runs/${first.runId}/checkpoints`, "ada");
    expect(journal.body.checkpoints).toEqual([
      "persist:run:start",
      "intake:ask",
      `signal:tool:${first.runId}:${callId}`,
      "intake:answers",
      "stream:step-start:0",
    ]);
    expect(await usageCount(server, first.runId)).toBe(1);
    // The outcome follows from the signal alone: it rides with the model call's commit.
    const commits = await server.store.db.query<{ name: string; tx: string }>(
      "SELECT name, xmin::text AS tx FROM prepick_checkpoints WHERE run_id = $1 ORDER BY position",
      [first.runId],
    );
    const commitOf = (name: string) => commits.find((row) => row.name === name)?.tx;
    expect(commitOf("intake:answers")).toBeDefined();
    expect(commitOf("intake:answers")).toBe(commitOf("stream:step-start:0"));
    expect(commitOf("intake:answers")).not.toBe(commitOf(`signal:tool:${first.runId}:${callId}`));
  });

  it("does not ask again on the thread's second turn, and records the verdict", async () => {
    const first = await chat(server, "bob", "Rename a variable");
    await call(server, "POST", "/agent/tool-call/skip", "bob", { toolCallId: `intake-${first.runId}` });
    await follow(server, "bob", first.runId, first.frames.at(-1)?.seq ?? 0);
    const second = await chat(server, "bob", "And another one", { threadId: first.threadId });
    expect(second.status).toBe(200);
    expect(kinds(second.frames)).not.toContain("elicitation");
    expect(second.frames.at(-1)?.frame).toEqual({ kind: "run-finish", status: "completed" });
    const journal = await call(server, "GET", `/agent/runs/${second.runId}/checkpoints`, "bob");
    expect(journal.body.checkpoints).toEqual(["persist:run:start", "intake:ask", "stream:step-start:0"]);
    const rows = await server.store.checkpoints.list(second.runId);
    expect(rows[1]?.result).toEqual({ asked: false });
  });

  it("asks an every-turn intake again on the thread's next turn", async () => {
    const answers = { seats: ["3"], contact: ["dee@example.com"] };
    const first = await chat(server, "hana", "Book a table", { agent: "booker" });
    await call(server, "POST", "/agent/tool-call/answer", "hana", {
      toolCallId: `intake-${first.runId}`,
      answers,
    });
    await follow(server, "hana", first.runId, first.frames.at(-1)?.seq ?? 0);
    const second = await chat(server, "hana", "Another table", { threadId: first.threadId });
    expect(kinds(second.frames)).toEqual(["run-start", "elicitation", "run-parked"]);
    expect(frameOf(second.frames, "elicitation")?.id).toBe(`intake-${second.runId}`);
  });

  it("journals a plain run without any intake or elicitation checkpoint", async () => {
    const run = await chat(server, "cy", "Say hello", { agent: "plain" });
    expect(run.frames.at(-1)?.frame).toEqual({ kind: "run-finish", status: "completed" });
    const journal = await call(server, "GET", `/agent/runs/${run.runId}/checkpoints`, "cy");
    expect(journal.body.checkpoints).toEqual(["persist:run:start", "stream:step-start:0"]);
  });

  it("refuses bad answers with one message per question and changes no row", async () => {
    const run = await chat(server, "dee", "Book a table", { agent: "booker" });
    const callId = `intake-${run.runId}`;
    const refused = await call(server, "POST", "/agent/tool-call/answer", "dee", {
      toolCallId: callId,
      answers: { seats: ["12"], contact: ["not-an-email"] },
    });
    expect(refused.status).toBe(400);
    const issues = refused.body.issues as { questionId: string; message: string }[];
    expect(issues.map((issue) => issue.questionId)).toEqual(["seats", "contact"]);
    expect(issues[0]?.message).toBe('answers["seats"] must be at most 9');
    const row = await server.store.toolCalls.get(callId);
    expect(row?.status).toBe("pending_approval");
    expect(row?.output).toBeNull();
    expect((await server.store.runs.get(run.runId))?.status).toBe("parked");

    const missing = await call(server, "POST", "/agent/tool-call/answer", "dee", { toolCallId: callId });
    expect(missing.status).toBe(400);
    expect((missing.body.issues as { message: string }[])[0]?.message).toBe('answers["contact"] is required');
  });

  it("answers 404 to a foreign actor and 409 with the stored outcome once settled", async () => {
    const run = await chat(server, "eve", "Split the module");
    const callId = `intake-${run.runId}`;
    const foreign = await call(server, "POST", "/agent/tool-call/answer", "mallory", { toolCallId: callId });
    expect(foreign.status).toBe(404);
    const unknown = await call(server, "POST", "/agent/tool-call/answer", "eve", { toolCallId: "nope" });
    expect(unknown.status).toBe(404);
    const answered = await call(server, "POST", "/agent/tool-call/answer", "eve", {
      toolCallId: callId,
      answers: { scope: ["file"] },
    });
    expect(answered.status).toBe(200);
    expect((answered.body.output as ElicitationOutcome).defaulted).toEqual(["tests"]);
    const again = await call(server, "POST", "/agent/tool-call/skip", "eve", { toolCallId: callId });
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({
      toolCallId: callId,
      status: "answered",
      output: answered.body.output,
    });
    const approve = await call(server, "POST", "/agent/tool-call/approve", "eve", { toolCallId: callId });
    expect(approve.status).toBe(400);
    expect(approve.body.error).toContain("/agent/tool-call/answer");
  });

  it("settles a skip with every default standing", async () => {
    const run = await chat(server, "fay", "Clean the module");
    const skipped = await call(server, "POST", "/agent/tool-call/skip", "fay", {
      toolCallId: `intake-${run.runId}`,
    });
    expect(skipped.status).toBe(200);
    expect(skipped.body.status).toBe("skipped");
    const outcome = skipped.body.output as ElicitationOutcome;
    expect(outcome.skipped).toBe(true);
    expect(outcome.summary).toMatch(/^The user skipped/);
    const rest = await follow(server, "fay", run.runId, run.frames.at(-1)?.seq ?? 0);
    expect(frameOf(rest, "tool-output")?.output).toEqual(outcome);
    expect(rest.at(-1)?.frame).toEqual({ kind: "run-finish", status: "completed" });
  });

  it("applies the answer rules again when the loop settles a row written around the endpoint", async () => {
    const run = await chat(server, "gil", "Clean the parser");
    const callId = `intake-${run.runId}`;
    // Another writer of the store (a bot, another front end) settles the row with what it likes.
    const row = await server.store.toolCalls.get(callId);
    if (!row) throw new Error("the intake has no row");
    const settlement = {
      status: "answered" as const,
      output: {
        answers: { scope: ["everything", "file"], tests: [7], bogus: ["x"] },
        skipped: false,
        defaulted: [],
        summary: "The user answered: deploy to production",
      },
    };
    const settled = await server.store.settlements.settle({
      callId,
      runId: run.runId,
      ...settlement,
      signal: {
        name: signalName(run.runId, callId),
        result: settlement,
        frames: settlementFrames(row, settlement),
      },
    });
    expect(settled.settled).toBe(true);
    const rest = await follow(server, "gil", run.runId, run.frames.at(-1)?.seq ?? 0);
    expect(frameOf(rest, "tool-output")?.output).toEqual({
      answers: { scope: ["file"], tests: ["unit"] },
      skipped: false,
      defaulted: ["tests"],
      summary: "The user answered:\nHow much should I cover? → This file\nWhich tests should I touch? → Unit",
    });
    expect(rest.at(-1)?.frame).toEqual({ kind: "run-finish", status: "completed" });
  });

  it("keeps a thread to one turn at a time", async () => {
    const run = await chat(server, "gus", "Refactor it");
    const busy = await call(server, "POST", "/agent/chat", "gus", {
      threadId: run.threadId,
      message: { role: "user", parts: [{ type: "text", text: "again" }] },
    });
    expect(busy.status).toBe(409);
    expect(busy.body.runId).toBe(run.runId);
  });
});
