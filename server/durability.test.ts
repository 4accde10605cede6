import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import type { AgentConfig } from "./agents/types";
import { captureLog } from "./testing/capture-log";
import { call, chat, follow, frameOf, kinds, startServer, tempStore } from "./testing/harness";
import { refactorer } from "./testing/test-agents";

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function serverOn(dataDir: string, agents: AgentConfig[], extra: { leaseMs?: number } = {}) {
  const server = await startServer({ agents, dataDir, stopGraceMs: 200, ...extra });
  cleanups.push(() => server.close());
  return server;
}

async function eventually<T>(read: () => Promise<T | undefined>, what: string): Promise<T> {
  // Bounded in count and time: 200 tries, 50 ms apart.
  for (let attempt = 0; attempt < 200; attempt++) {
    const value = await read();
    if (value !== undefined) return value;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`gave up waiting for ${what}`);
}

/**
 * A run of an agent that offers `ask`, parked on the model's question set in a store on disk,
 * with its server closed: a restart may then host the agent changed.
 */
async function parkedAsk() {
  const dir = await tempStore();
  cleanups.push(dir.remove);
  const asking: AgentConfig = { name: "helper", systemPrompt: "You help.", ask: true };
  const first = await serverOn(dir.path, [asking]);
  const run = await chat(first, "bob", "Should I refactor the parser?");
  const callId = frameOf(run.frames, "elicitation")?.id;
  expect(run.frames.at(-1)?.frame.kind).toBe("run-parked");
  await first.close();
  return { dir, asking, run, callId };
}

describe("durable runs", () => {
  it("keeps a parked run across a restart on the same folder, and resumes it on answer", {
    timeout: 60_000,
  }, async () => {
    const dir = await tempStore();
    cleanups.push(dir.remove);
    const first = await serverOn(dir.path, [refactorer]);
    const run = await chat(first, "ada", "Refactor the parser");
    expect(run.frames.at(-1)?.frame.kind).toBe("run-parked");
    await first.close();

    const second = await serverOn(dir.path, [refactorer]);
    const inbox = await call(second, "GET", "/agent/approvals", "ada");
    expect((inbox.body.approvals as { id: string }[]).map((row) => row.id)).toEqual([`intake-${run.runId}`]);
    const answered = await call(second, "POST", "/agent/tool-call/answer", "ada", {
      toolCallId: `intake-${run.runId}`,
      answers: { scope: ["file"], tests: ["unit", "e2e"] },
    });
    expect(answered.status).toBe(200);
    const rest = await follow(second, "ada", run.runId, run.frames.at(-1)?.seq ?? 0);
    expect(frameOf(rest, "tool-output")?.output).toEqual(answered.body.output);
    expect(rest.at(-1)?.frame).toEqual({ kind: "run-finish", status: "completed" });
    const thread = await call(second, "GET", `/agent/threads/${run.threadId}`, "ada");
    const messages = thread.body.messages as { role: string; status?: string; frames?: unknown[] }[];
    expect(messages.map((message) => message.role)).toEqual(["user", "assistant"]);
    expect(messages[1]?.status).toBe("completed");
    expect(messages[1]?.frames).toHaveLength(run.frames.length + rest.length);
  });

  it("settles a parked ask by its journaled kind after the agent stopped offering ask", {
    timeout: 60_000,
  }, async () => {
    const { dir, asking, run, callId } = await parkedAsk();

    const second = await serverOn(dir.path, [{ ...asking, ask: false }]);
    const answered = await call(second, "POST", "/agent/tool-call/answer", "bob", { toolCallId: callId });
    expect(answered.status).toBe(200);
    const rest = await follow(second, "bob", run.runId, run.frames.at(-1)?.seq ?? 0);
    expect(frameOf(rest, "tool-output")?.output).toEqual(answered.body.output);
    expect(rest.at(-1)?.frame).toEqual({ kind: "run-finish", status: "completed" });
  });

  it("stops a run whose journal no longer matches its agent, with a clear error", {
    timeout: 60_000,
  }, async () => {
    const { dir, asking, run, callId } = await parkedAsk();

    // The same agent now declares an intake: replay reaches intake:ask where the journal holds a model call.
    const changed: AgentConfig = { ...asking, intake: refactorer.intake };
    const second = await serverOn(dir.path, [changed]);
    const log = captureLog();
    cleanups.push(async () => log.restore());
    await call(second, "POST", "/agent/tool-call/answer", "bob", { toolCallId: callId });
    const rest = await follow(second, "bob", run.runId, run.frames.at(-1)?.seq ?? 0);
    const finish = frameOf(rest, "run-finish");
    expect(finish).toMatchObject({ status: "failed", code: "agent-changed" });
    // The person reads a sentence; the log line their error id names holds the positions.
    expect(finish?.error).toBe("The agent was changed while it worked on this reply, so the reply stopped.");
    const entry = log.entry(finish?.errorId ?? "");
    expect(entry?.error).toContain('position 1 recorded "stream:step-start:0"');
    expect(entry?.error).toContain('reached "intake:ask"');
    // The answer was recorded as it arrived (its signal and outcome); the run then went no further.
    expect(kinds(rest)).toEqual(["tool-output", "run-finish"]);
  });

  it("never runs a side-effecting tool twice when a replay finds its claim without a result", {
    timeout: 60_000,
  }, async () => {
    const dir = await tempStore();
    cleanups.push(dir.remove);
    const sent: string[] = [];
    let release: () => void = () => undefined;
    const stuck = new Promise<void>((resolve) => {
      release = resolve;
    });
    cleanups.push(async () => release());
    const mailer = (hang: boolean): AgentConfig => ({
      name: "mailer",
      systemPrompt: "You send mail.",
      tools: [
        {
          name: "send_mail",
          description: "Sends the mail.",
          inputSchema: z.object({}),
          sideEffects: true,
          keywords: ["send"],
          execute: async (_input, context) => {
            sent.push(context.idempotencyKey);
            // The first process dies while the mail is being sent: it never records the result.
            if (hang) await stuck;
            return { sent: true };
          },
        },
      ],
    });
    // A lease far longer than the test: the restarted process must not wait for it to expire.
    const first = await serverOn(dir.path, [mailer(true)], { leaseMs: 600_000 });
    const response = fetch(`${first.url}/agent/chat`, {
      method: "POST",
      headers: { "x-actor-id": "cy", "content-type": "application/json" },
      body: JSON.stringify({ message: { role: "user", parts: [{ type: "text", text: "send the report" }] } }),
    });
    const runId = (await response).headers.get("x-run-id") ?? "";
    await eventually(async () => (sent.length === 1 ? true : undefined), "the first send");
    await first.close();

    const second = await serverOn(dir.path, [mailer(false)], { leaseMs: 600_000 });
    const rest = await follow(second, "cy", runId, 0, "?follow=all");
    const error = frameOf(rest, "tool-error");
    expect(error?.error).toContain("was lost");
    expect(error?.error).toContain("not run again");
    expect(rest.at(-1)?.frame).toEqual({ kind: "run-finish", status: "completed" });
    expect(sent).toHaveLength(1);
    const journal = await call(second, "GET", `/agent/runs/${runId}/checkpoints`, "cy");
    expect(journal.body.checkpoints).toEqual([
      "persist:run:start",
      "stream:step-start:0",
      `persist:toolcall:${error?.id}`,
      `persist:toolexec:${error?.id}`,
      "stream:step-start:1",
    ]);
  });
});
