import type { ElicitationOutcome } from "prepick/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PrepickServer } from "./server";
import { call, chat, follow, frameOf, kinds, readFrames, startServer, usageCount } from "./testing/harness";
import { asker, holdSlowTool, operator, purges, slow, slowGate } from "./testing/test-agents";

let server: PrepickServer;

beforeAll(async () => {
  server = await startServer({ agents: [asker, operator, slow] });
}, 60_000);
afterAll(async () => {
  await server.close();
}, 60_000);

describe("the model's ask", () => {
  it("parks on a valid question set and journals the approval path's names plus the elicitation", async () => {
    const run = await chat(server, "ada", "Should I refactor the parser?");
    expect(kinds(run.frames)).toEqual([
      "run-start",
      "step-start",
      "step-finish",
      "elicitation",
      "run-parked",
    ]);
    const elicitation = frameOf(run.frames, "elicitation");
    const callId = elicitation?.id ?? "";
    expect(elicitation?.request.source).toBe("ask");
    const row = await server.store.toolCalls.get(callId);
    expect(row).toMatchObject({ name: "ask", toolType: "action", status: "pending_approval" });

    const answered = await call(server, "POST", "/agent/tool-call/answer", "ada", { toolCallId: callId });
    expect(answered.status).toBe(200);
    const rest = await follow(server, "ada", run.runId, run.frames.at(-1)?.seq ?? 0);
    expect(frameOf(rest, "tool-output")).toEqual({
      kind: "tool-output",
      id: callId,
      output: answered.body.output,
    });
    expect(rest.at(-1)?.frame).toEqual({ kind: "run-finish", status: "completed" });
    const text = rest.flatMap(({ frame }) => (frame.kind === "text-delta" ? [frame.delta] : [])).join("");
    // The reply tells the person each choice the summary records (`prompt → label`), as a list item.
    const [prompt, label] = ((answered.body.output as ElicitationOutcome).summary.split("\n")[1] ?? "").split(
      " → ",
    );
    expect(text).toContain(`- ${prompt} **${label}**`);

    const journal = await call(server, "GET", `/agent/runs/${run.runId}/checkpoints`, "ada");
    expect(journal.body.checkpoints).toEqual([
      "persist:run:start",
      "stream:step-start:0",
      `persist:toolcall:${callId}`,
      `stream:elicitation:${callId}`,
      `signal:tool:${run.runId}:${callId}`,
      `persist:toolexec:${callId}`,
      "stream:step-start:1",
    ]);
    expect((await server.store.checkpoints.list(run.runId))[2]?.result).toMatchObject({ kind: "ask" });
    expect(await usageCount(server, run.runId)).toBe(2);
  });

  it("journals a skip as persist:toolreject", async () => {
    const run = await chat(server, "bob", "Can you plan the release?");
    const callId = frameOf(run.frames, "elicitation")?.id ?? "";
    const skipped = await call(server, "POST", "/agent/tool-call/skip", "bob", { toolCallId: callId });
    expect(skipped.status).toBe(200);
    await follow(server, "bob", run.runId, run.frames.at(-1)?.seq ?? 0);
    const journal = await call(server, "GET", `/agent/runs/${run.runId}/checkpoints`, "bob");
    expect(journal.body.checkpoints).toContain(`persist:toolreject:${callId}`);
    expect(journal.body.checkpoints).not.toContain(`persist:toolexec:${callId}`);
  });

  it("returns a malformed question set to the model as a tool failure, parking nobody", async () => {
    const run = await chat(server, "cy", "Send me a malformed question please");
    const error = frameOf(run.frames, "tool-error");
    expect(error?.error).toContain("The questions were not asked");
    expect(error?.error).toContain("must pre-pick at least one option");
    // The model read the failure and fixed its call in its next step: only that one is posted.
    const kindsSeen = kinds(run.frames);
    expect(kindsSeen.indexOf("tool-error")).toBeLessThan(kindsSeen.indexOf("elicitation"));
    expect(frameOf(run.frames, "elicitation")?.id).not.toBe(error?.id);
    expect(await server.store.toolCalls.get(error?.id ?? "")).toBeUndefined();
    const inbox = (await call(server, "GET", "/agent/approvals", "cy")).body.approvals as { id: string }[];
    expect(inbox.map((row) => row.id)).toEqual([frameOf(run.frames, "elicitation")?.id]);
    const journal = await server.store.checkpoints.list(run.runId);
    expect(journal.map((entry) => entry.name).slice(0, 4)).toEqual([
      "persist:run:start",
      "stream:step-start:0",
      `persist:toolcall:${error?.id}`,
      "stream:step-start:1",
    ]);
  });
});

describe("tools that need approval", () => {
  it("runs an approved tool once and streams its output", async () => {
    const before = purges.length;
    const run = await chat(server, "dee", "Please purge the cache", { agent: "operator" });
    const request = frameOf(run.frames, "approval-request");
    expect(request?.toolName).toBe("purge_cache");
    expect(run.frames.at(-1)?.frame.kind).toBe("run-parked");
    const answer = await call(server, "POST", "/agent/tool-call/answer", "dee", { toolCallId: request?.id });
    expect(answer.status).toBe(400);
    expect(answer.body.error).toContain("/agent/tool-call/approve");
    const approved = await call(server, "POST", "/agent/tool-call/approve", "dee", {
      toolCallId: request?.id,
    });
    expect(approved.body).toEqual({ toolCallId: request?.id, status: "approved", output: null });
    const rest = await follow(server, "dee", run.runId, run.frames.at(-1)?.seq ?? 0);
    expect(frameOf(rest, "tool-output")).toEqual({
      kind: "tool-output",
      id: request?.id,
      output: { purged: true },
    });
    expect(rest.at(-1)?.frame).toEqual({ kind: "run-finish", status: "completed" });
    expect(purges.length).toBe(before + 1);
    expect((await server.store.toolCalls.get(request?.id ?? ""))?.status).toBe("completed");
    const journal = await call(server, "GET", `/agent/runs/${run.runId}/checkpoints`, "dee");
    expect(journal.body.checkpoints).toEqual([
      "persist:run:start",
      "stream:step-start:0",
      `persist:toolcall:${request?.id}`,
      `signal:tool:${run.runId}:${request?.id}`,
      `persist:toolexec:${request?.id}`,
      "stream:step-start:1",
    ]);
  });

  it("does not run a rejected tool and streams tool-denied with the reason", async () => {
    const before = purges.length;
    const run = await chat(server, "eve", "purge everything", { agent: "operator" });
    const id = frameOf(run.frames, "approval-request")?.id;
    const rejected = await call(server, "POST", "/agent/tool-call/reject", "eve", {
      toolCallId: id,
      reason: "not now",
    });
    expect(rejected.body).toEqual({ toolCallId: id, status: "rejected", output: { reason: "not now" } });
    const rest = await follow(server, "eve", run.runId, run.frames.at(-1)?.seq ?? 0);
    expect(frameOf(rest, "tool-denied")).toEqual({ kind: "tool-denied", id, reason: "not now" });
    expect(rest.at(-1)?.frame).toEqual({ kind: "run-finish", status: "completed" });
    expect(purges.length).toBe(before);
    const journal = await call(server, "GET", `/agent/runs/${run.runId}/checkpoints`, "eve");
    expect(journal.body.checkpoints).toContain(`persist:toolreject:${id}`);
  });

  it("runs a tool that needs no approval straight away", async () => {
    const run = await chat(server, "fay", "show the stats", { agent: "operator" });
    const toolCall = frameOf(run.frames, "tool-call");
    expect(toolCall?.toolName).toBe("read_stats");
    expect(frameOf(run.frames, "tool-output")?.output).toEqual({ hits: 3 });
    expect(run.frames.at(-1)?.frame).toEqual({ kind: "run-finish", status: "completed" });
  });
});

describe("cancel", () => {
  it("settles the pending rows as cancelled and finishes the run as cancelled", async () => {
    const run = await chat(server, "gus", "purge the cache", { agent: "operator" });
    const id = frameOf(run.frames, "approval-request")?.id;
    const foreign = await call(server, "POST", `/agent/runs/${run.runId}/cancel`, "mallory");
    expect(foreign.status).toBe(404);
    const cancelled = await call(server, "POST", `/agent/runs/${run.runId}/cancel`, "gus");
    expect(cancelled.body).toEqual({ runId: run.runId, status: "cancelled" });
    const rest = await follow(server, "gus", run.runId, run.frames.at(-1)?.seq ?? 0);
    expect(rest.map(({ frame }) => frame)).toEqual([
      { kind: "tool-denied", id, reason: "cancelled", cancelled: true },
      { kind: "run-finish", status: "cancelled" },
    ]);
    expect((await server.store.toolCalls.get(id ?? ""))?.status).toBe("cancelled");
    const late = await call(server, "POST", "/agent/tool-call/approve", "gus", { toolCallId: id });
    expect(late.status).toBe(409);
    expect(late.body.status).toBe("cancelled");
    const again = await call(server, "POST", `/agent/runs/${run.runId}/cancel`, "gus");
    expect(again.status).toBe(409);
  });
});

describe("cancel while running", () => {
  it("aborts the tool in flight and ends the run as cancelled, without waiting for the tool", async () => {
    const release = holdSlowTool();
    const response = fetch(`${server.url}/agent/chat`, {
      method: "POST",
      headers: { "x-actor-id": "jo", "content-type": "application/json" },
      body: JSON.stringify({
        agent: "slow",
        message: { role: "user", parts: [{ type: "text", text: "wait" }] },
      }),
    });
    const started = await response;
    const runId = started.headers.get("x-run-id") ?? "";
    for (let attempt = 0; attempt < 200 && slowGate.started === 0; attempt++) {
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    const cancelling = await call(server, "POST", `/agent/runs/${runId}/cancel`, "jo");
    expect(cancelling.status).toBe(202);
    expect(cancelling.body).toEqual({ runId, status: "cancelling" });
    // The tool never returns until the test lets it: the run ends cancelled while it still waits.
    const frames = await readFrames(started);
    const callId = frameOf(frames, "tool-call")?.id ?? "";
    expect(kinds(frames).slice(-2)).toEqual(["tool-denied", "run-finish"]);
    expect(frameOf(frames, "tool-denied")).toEqual({
      kind: "tool-denied",
      id: callId,
      reason: "cancelled",
      cancelled: true,
    });
    expect(frames.at(-1)?.frame).toEqual({ kind: "run-finish", status: "cancelled" });
    expect(kinds(frames)).not.toContain("tool-output");
    expect(kinds(frames)).not.toContain("text-delta");
    expect((await server.store.runs.get(runId))?.status).toBe("cancelled");
    expect((await server.store.toolCalls.get(callId))?.status).toBe("cancelled");
    release();
  });
});

describe("resumable streams", () => {
  it("replays what was missed after Last-Event-ID, and follows across parks with follow=all", async () => {
    const run = await chat(server, "hal", "Should I refactor the parser?");
    const replay = await follow(server, "hal", run.runId, 2);
    expect(replay).toEqual(run.frames.filter(({ seq }) => seq > 2));
    const viaQuery = await fetch(`${server.url}/agent/runs/${run.runId}/stream?after=1`, {
      headers: { "x-actor-id": "hal" },
    });
    expect(viaQuery.headers.get("content-type")).toContain("text/event-stream");
    await viaQuery.body?.cancel();
    const callId = frameOf(run.frames, "elicitation")?.id;
    const all = follow(server, "hal", run.runId, 0, "?follow=all");
    await call(server, "POST", "/agent/tool-call/answer", "hal", { toolCallId: callId });
    const frames = await all;
    expect(kinds(frames)).toContain("run-parked");
    expect(frames.at(-1)?.frame.kind).toBe("run-finish");
    expect(frames.map(({ seq }) => seq)).toEqual(frames.map((_, index) => index + 1));
  });

  it("replays past a park the run has moved on from, and stops at the one it waits on", async () => {
    const run = await chat(server, "hal", "Should I refactor the parser?");
    const callId = frameOf(run.frames, "elicitation")?.id;
    await call(server, "POST", "/agent/tool-call/answer", "hal", { toolCallId: callId });
    const rest = await follow(server, "hal", run.runId, run.frames.at(-1)?.seq ?? 0);
    expect(rest.at(-1)?.frame.kind).toBe("run-finish");
    // From the start, without follow=all: the old park is history, so the replay reaches the end.
    const replay = await follow(server, "hal", run.runId, 0);
    expect(replay).toEqual([...run.frames, ...rest]);
    // A run still parked: the replay ends at its park.
    const parked = await chat(server, "hal", "Should I refactor the lexer?");
    expect(await follow(server, "hal", parked.runId, 0)).toEqual(parked.frames);
  });

  it("answers 404 for another actor's run and 400 for a bad Last-Event-ID", async () => {
    const run = await chat(server, "ivy", "hello there", { agent: "asker" });
    const foreign = await fetch(`${server.url}/agent/runs/${run.runId}/stream`, {
      headers: { "x-actor-id": "x" },
    });
    expect(foreign.status).toBe(404);
    const bad = await fetch(`${server.url}/agent/runs/${run.runId}/stream?after=-1`, {
      headers: { "x-actor-id": "ivy" },
    });
    expect(bad.status).toBe(400);
  });
});
