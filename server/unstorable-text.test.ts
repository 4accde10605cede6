import { MockLanguageModelV4 } from "ai/test";
import type { SequencedFrame } from "prepick/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { streamOf, ONE_TOKEN_USAGE as usage } from "../tests/support/model-stream";
import { DEMO_AGENTS } from "./agents/demo-agents";
import type { AgentConfig } from "./agents/types";
import type { PrepickServer } from "./server";
import { captureLog } from "./testing/capture-log";
import { call, chat, follow, kinds, startServer } from "./testing/harness";

// PostgreSQL's text refuses NUL and its jsonb refuses NUL and lone surrogates; JavaScript strings,
// JSON bodies and models hold both. A request carrying them is refused naming the field; what a
// model or a tool writes is stored with U+FFFD in their place, and the run goes on.
const NUL = "\u0000";
const LONE_HIGH = "\ud800";
const LONE_LOW = "\udc00";

/** Writes NUL and lone surrogates in its text, its reasoning and a tool call's input; then says done. */
function oddModel() {
  return new MockLanguageModelV4({
    doStream: async ({ prompt }) => {
      const answered = prompt.some((message) => message.role === "tool");
      if (answered) {
        return streamOf([
          { type: "text-start", id: "t2" },
          { type: "text-delta", id: "t2", delta: `done${NUL}` },
          { type: "text-end", id: "t2" },
          { type: "finish", finishReason: { unified: "stop", raw: "stop" }, usage },
        ]);
      }
      return streamOf([
        { type: "reasoning-start", id: "r" },
        { type: "reasoning-delta", id: "r", delta: `think${LONE_LOW}` },
        { type: "reasoning-end", id: "r" },
        { type: "text-start", id: "t" },
        { type: "text-delta", id: "t", delta: `a${NUL}b` },
        { type: "text-delta", id: "t", delta: `c${LONE_HIGH}` },
        { type: "text-end", id: "t" },
        {
          type: "tool-call",
          toolCallId: `model${NUL}id`,
          toolName: "echo",
          input: JSON.stringify({ note: `n${NUL}${LONE_LOW}`, [`key${NUL}`]: "x" }),
        },
        {
          type: "tool-call",
          toolCallId: "second",
          toolName: "breaks",
          input: "{}",
        },
        { type: "finish", finishReason: { unified: "tool-calls", raw: "tool_calls" }, usage },
      ]);
    },
  });
}

/** A model whose call fails with a message holding a NUL. */
function failingModel() {
  return new MockLanguageModelV4({
    doStream: async () => {
      throw new Error(`the provider said${NUL}no${LONE_HIGH}`);
    },
  });
}

const odd: AgentConfig = {
  name: "odd",
  systemPrompt: "You write odd text.",
  model: oddModel(),
  tools: [
    {
      name: "echo",
      description: "Echoes a note.",
      inputSchema: z.looseObject({ note: z.string() }),
      execute: ({ note }: { note: string }) => ({ echoed: `${note}${NUL}`, [`out${LONE_HIGH}`]: true }),
    },
    {
      name: "breaks",
      description: "Fails.",
      inputSchema: z.object({}),
      execute: () => {
        throw new Error(`disk${NUL}full${LONE_LOW}`);
      },
    },
  ],
};
const failing: AgentConfig = { name: "failing", systemPrompt: "You fail.", model: failingModel() };

let server: PrepickServer;

beforeAll(async () => {
  server = await startServer({ agents: [...DEMO_AGENTS, odd, failing] });
}, 60_000);
afterAll(async () => {
  await server.close();
}, 60_000);

async function rowCounts() {
  const rows = await server.store.db.query<{ threads: number; runs: number; calls: number }>(
    `SELECT (SELECT count(*)::int FROM prepick_threads) AS threads, (SELECT count(*)::int FROM prepick_runs) AS runs,
       (SELECT count(*)::int FROM prepick_tool_calls) AS calls`,
  );
  return rows[0];
}

async function postRaw(path: string, body: unknown) {
  return call(server, "POST", path, "ada", body);
}

function messageWith(text: string) {
  return {
    agent: "planner",
    message: {
      role: "user",
      parts: [
        { type: "text", text: "ok" },
        { type: "text", text },
      ],
    },
  };
}

const allText = (frames: readonly SequencedFrame[]) => JSON.stringify(frames.map(({ frame }) => frame));

describe("a request carrying text the store cannot hold", () => {
  it("is refused with a 400 naming the field, for chat text, ids and answers, and nothing is written", async () => {
    const before = await rowCounts();
    const cases: [unknown, string, RegExp][] = [
      [
        messageWith(`hi${NUL}there`),
        "/agent/chat",
        /^message\.parts\[1\]\.text holds NUL \(U\+0000\) at character 3/,
      ],
      [
        messageWith(`hi${LONE_LOW}`),
        "/agent/chat",
        /^message\.parts\[1\]\.text holds a lone surrogate \(U\+DC00\) at character 3/,
      ],
      [
        messageWith(`🙂${LONE_HIGH}`),
        "/agent/chat",
        /^message\.parts\[1\]\.text holds a lone surrogate \(U\+D800\) at character 2/,
      ],
      [{ ...messageWith("hi"), agent: `planner${NUL}` }, "/agent/chat", /^agent holds NUL/],
      [{ ...messageWith("hi"), [`extra${NUL}`]: 1 }, "/agent/chat", /^the key \["extra\\u0000"\] holds NUL/],
      [{ toolCallId: `x${NUL}` }, "/agent/tool-call/answer", /^toolCallId holds NUL/],
      [{ toolCallId: `x${LONE_HIGH}` }, "/agent/tool-call/skip", /^toolCallId holds a lone surrogate/],
      [{ toolCallId: "x", reason: `no${NUL}` }, "/agent/tool-call/reject", /^reason holds NUL/],
    ];
    for (const [body, path, says] of cases) {
      const refused = await postRaw(path, body);
      expect(refused.status, JSON.stringify(refused.body)).toBe(400);
      expect(refused.body.error).toMatch(says);
      expect(refused.body.error).toMatch(/text may not contain NUL or a UTF-16 surrogate without its pair$/);
    }
    expect(await rowCounts()).toEqual(before);
  });

  it("refuses an answer value holding NUL or a lone surrogate, and the question stays pending", async () => {
    const turn = await chat(server, "ada", "Book two seats", { agent: "booking" });
    const toolCallId = `intake-${turn.runId}`;
    for (const [notes, says] of [
      [`by the window${NUL}`, /^answers\.notes\[0\] holds NUL \(U\+0000\) at character 14/],
      [LONE_HIGH, /^answers\.notes\[0\] holds a lone surrogate \(U\+D800\) at character 1/],
    ] as const) {
      const refused = await postRaw("/agent/tool-call/answer", {
        toolCallId,
        answers: { seats: ["2"], contact: ["ada@example.com"], notes: [notes] },
      });
      expect(refused.status, JSON.stringify(refused.body)).toBe(400);
      expect(refused.body.error).toMatch(says);
      expect((await server.store.toolCalls.get(toolCallId))?.status).toBe("pending_approval");
    }
    const answered = await postRaw("/agent/tool-call/answer", {
      toolCallId,
      answers: { seats: ["2"], contact: ["ada@example.com"], notes: ["by the window"] },
    });
    expect(answered.status, JSON.stringify(answered.body)).toBe(200);
  });

  it("is refused when the URL's path or query holds a NUL", async () => {
    for (const [method, path, says] of [
      ["GET", "/agent/runs/run%00x/stream", /^the URL's path holds NUL/],
      ["GET", "/agent/runs/run%00x/checkpoints", /^the URL's path holds NUL/],
      ["POST", "/agent/runs/run%00x/cancel", /^the URL's path holds NUL/],
      ["GET", "/agent/threads/thread%00x", /^the URL's path holds NUL/],
      ["GET", "/agent/approvals?cursor=%00", /^the query parameter cursor holds NUL/],
    ] as const) {
      const refused = await call(server, method, path, "ada", method === "POST" ? {} : undefined);
      expect(refused.status, `${path}: ${JSON.stringify(refused.body)}`).toBe(400);
      expect(refused.body.error).toMatch(says);
    }
  });
});

describe("a model's or tool's output holding text the store cannot hold", () => {
  it("is stored with U+FFFD in its place, and the run goes on to its end", async () => {
    const turn = await chat(server, "ada", "Write something odd", { agent: "odd" });
    expect(turn.status).toBe(200);
    const frames =
      turn.frames.at(-1)?.frame.kind === "run-finish"
        ? turn.frames
        : await follow(server, "ada", turn.runId, 0);
    expect(frames.at(-1)?.frame, allText(frames)).toEqual({ kind: "run-finish", status: "completed" });
    expect(kinds(frames)).toContain("tool-output");
    expect(kinds(frames)).toContain("tool-error");
    const text = frames.flatMap(({ frame }) => (frame.kind === "text-delta" ? [frame.delta] : []));
    expect(text.join("")).toBe("a\uFFFDbc\uFFFDdone\uFFFD");
    const reasoning = frames.flatMap(({ frame }) => (frame.kind === "reasoning-delta" ? [frame.delta] : []));
    expect(reasoning.join("")).toBe("think\uFFFD");
    const stored = allText(frames);
    expect(stored).toContain("n\uFFFD\uFFFD\uFFFD");
    expect(stored).toContain("out\uFFFD");
    expect(stored).toContain("disk\uFFFDfull\uFFFD");
    expect(stored).not.toMatch(/\\u0000|\\ud[89a-f]/i);
    const thread = await call(server, "GET", `/agent/threads/${turn.threadId}`, "ada");
    expect(thread.status).toBe(200);
  });

  it("fails the run with model-failed, the model's error (NUL and all) in the log only", async () => {
    const log = captureLog();
    const turn = await chat(server, "ada", "Try", { agent: "failing" }).finally(() => log.restore());
    const finish = turn.frames.at(-1)?.frame;
    expect(finish).toMatchObject({ kind: "run-finish", status: "failed", code: "model-failed" });
    const run = await server.store.runs.get(turn.runId);
    expect(run?.status).toBe("failed");
    expect(JSON.stringify(finish)).not.toContain("said");
    expect(run?.error).not.toContain("said");
    const errorId = (finish as { errorId: string }).errorId;
    expect(log.entry(errorId)?.error).toContain(`the provider said${NUL}no${LONE_HIGH}`);
    expect(log.lines.every((line) => !line.includes("\n"))).toBe(true);
  });
});
