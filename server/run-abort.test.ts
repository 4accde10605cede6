import type { LanguageModelV4CallOptions } from "@ai-sdk/provider";
import { MockLanguageModelV4 } from "ai/test";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { hangingStreamOf, ONE_TOKEN_USAGE, streamOf } from "../tests/support/model-stream";
import { waitFor } from "../tests/support/wait-for";
import type { AgentConfig } from "./agents/types";
import type { PrepickServer } from "./server";
import { type CapturedLog, captureLog } from "./testing/capture-log";
import { call, chat, frameOf, kinds, readFrames, startServer } from "./testing/harness";

/** The text of the prompt's last user message. */
function lastUserText(options: LanguageModelV4CallOptions): string {
  const user = options.prompt.filter((message) => message.role === "user").at(-1);
  if (!user || typeof user.content === "string") return "";
  return user.content.flatMap((part) => (part.type === "text" ? [part.text] : [])).join("");
}

/** How many model calls never finished: each waits forever and ignores its abort signal. */
const hung = { calls: 0 };

/**
 * A model that hangs forever on "hang" (streaming one delta first and ignoring its abort signal, as
 * a stuck provider would), calls the tool `wait_forever` on "tool", and otherwise answers "Done.".
 */
const model = new MockLanguageModelV4({
  doStream: async (options) => {
    const text = lastUserText(options);
    const toolAnswered = options.prompt.at(-1)?.role === "tool";
    if (text.includes("hang") && !toolAnswered) {
      hung.calls += 1;
      return hangingStreamOf([
        { type: "text-start", id: "t" },
        { type: "text-delta", id: "t", delta: "Let me think" },
      ]);
    }
    if (text.includes("tool") && !toolAnswered) {
      return streamOf([
        { type: "tool-call", toolCallId: "c1", toolName: "wait_forever", input: "{}" },
        {
          type: "finish",
          finishReason: { unified: "tool-calls", raw: "tool_calls" },
          usage: ONE_TOKEN_USAGE,
        },
      ]);
    }
    return streamOf([
      { type: "text-start", id: "t" },
      { type: "text-delta", id: "t", delta: "Done." },
      { type: "text-end", id: "t" },
      { type: "finish", finishReason: { unified: "stop", raw: "stop" }, usage: ONE_TOKEN_USAGE },
    ]);
  },
});

/** What the never-ending tool's handlers saw of their abort signal. */
const toolSignals: AbortSignal[] = [];

const waitForever = {
  name: "wait_forever",
  description: "Never returns.",
  inputSchema: z.object({}),
  execute: (_input: unknown, context: { abortSignal: AbortSignal }) => {
    toolSignals.push(context.abortSignal);
    return new Promise<never>(() => undefined);
  },
};

const patient: AgentConfig = { name: "patient", systemPrompt: "You wait.", tools: [waitForever] };
const hasty: AgentConfig = {
  name: "hasty",
  systemPrompt: "You hurry.",
  tools: [waitForever],
  timeouts: { modelMs: 300, toolMs: 300 },
};

let server: PrepickServer;
let log: CapturedLog;

beforeAll(async () => {
  log = captureLog();
  // One slot: a run that held it for good would stop every other chat on this server.
  server = await startServer({ agents: [patient, hasty], model, maxRuns: 1 });
}, 60_000);
afterAll(async () => {
  log.restore();
  await server.close();
}, 60_000);

/** Starts a chat and returns its run id and the response, whose stream is read later. */
async function startChat(actor: string, text: string, agent: string) {
  const response = await fetch(`${server.url}/agent/chat`, {
    method: "POST",
    headers: { "x-actor-id": actor, "content-type": "application/json" },
    body: JSON.stringify({ agent, message: { role: "user", parts: [{ type: "text", text }] } }),
  });
  expect(response.status).toBe(200);
  return {
    response,
    runId: response.headers.get("x-run-id") ?? "",
    threadId: response.headers.get("x-thread-id") ?? "",
  };
}

describe("a model call that never finishes", () => {
  it("is aborted by cancel: the run ends cancelled, its slot is free and the thread takes a new message", async () => {
    const before = hung.calls;
    const run = await startChat("ada", "Please hang", "patient");
    await waitFor("the model call to start", () => (hung.calls > before ? true : undefined));
    const cancelling = await call(server, "POST", `/agent/runs/${run.runId}/cancel`, "ada");
    expect(cancelling.status).toBe(202);
    const frames = await readFrames(run.response);
    expect(frames.at(-1)?.frame).toEqual({ kind: "run-finish", status: "cancelled" });
    expect((await server.store.runs.get(run.runId))?.status).toBe("cancelled");
    // The one slot is free: another actor's chat runs, and the thread takes its next message.
    const other = await chat(server, "bob", "Hello", { agent: "patient" });
    expect(other.frames.at(-1)?.frame).toEqual({ kind: "run-finish", status: "completed" });
    const next = await chat(server, "ada", "Hello again", { threadId: run.threadId });
    expect(next.status).toBe(200);
    expect(next.frames.at(-1)?.frame).toEqual({ kind: "run-finish", status: "completed" });
  });

  it("times out: the run fails with model-timeout, a sentence and an error id, and the thread goes on", async () => {
    const run = await startChat("cy", "Please hang", "hasty");
    const frames = await readFrames(run.response);
    const finish = frames.at(-1)?.frame;
    expect(finish).toMatchObject({ kind: "run-finish", status: "failed", code: "model-timeout" });
    const { error, errorId } = finish as { error: string; errorId: string };
    expect(error).toBe("The model did not answer in time, so the reply stopped.");
    expect(errorId).toMatch(/^err-[0-9a-f-]{36}$/);
    // What streamed before the timeout stays; the log line carries the id and the detail.
    expect(kinds(frames)).toContain("text-delta");
    expect(log.entry(errorId)).toMatchObject({ runId: run.runId, code: "model-timeout" });
    const next = await chat(server, "cy", "Hello", { threadId: run.threadId });
    expect(next.frames.at(-1)?.frame).toEqual({ kind: "run-finish", status: "completed" });
  });
});

describe("a tool call that never finishes", () => {
  it("times out as a tool-timeout error the model reads, and the run goes on to its answer", async () => {
    const run = await chat(server, "dee", "Use the tool", { agent: "hasty" });
    const error = frameOf(run.frames, "tool-error");
    expect(error).toMatchObject({ kind: "tool-error", code: "tool-timeout" });
    expect(error?.error).toBe("wait_forever did not finish within 300 ms, so it was stopped.");
    expect(toolSignals.at(-1)?.aborted).toBe(true);
    expect(run.frames.at(-1)?.frame).toEqual({ kind: "run-finish", status: "completed" });
  });

  it("is aborted by cancel: the run ends cancelled and the call is cancelled", async () => {
    const seen = toolSignals.length;
    const run = await startChat("eve", "Use the tool", "patient");
    await waitFor("the tool to start", () => (toolSignals.length > seen ? true : undefined));
    expect((await call(server, "POST", `/agent/runs/${run.runId}/cancel`, "eve")).status).toBe(202);
    const frames = await readFrames(run.response);
    expect(kinds(frames).slice(-2)).toEqual(["tool-denied", "run-finish"]);
    expect(frames.at(-1)?.frame).toEqual({ kind: "run-finish", status: "cancelled" });
    expect(toolSignals.at(-1)?.aborted).toBe(true);
  });
});
