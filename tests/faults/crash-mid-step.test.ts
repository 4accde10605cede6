import { Chat } from "@ai-sdk/react";
import type { UIMessage } from "ai";
import { AgentChatTransport } from "prepick/transport";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiClient } from "../support/api-client";
import { type ServerProcess, startServer } from "../support/server-process";
import { type FaultCluster, startFaultCluster } from "./support/fault-database";
import { talkerWords } from "./support/talker-agent";

// A model call's frames are stored once, with its checkpoint, when the call ends; until then they
// stream to the page unstored (SSE events without an id). Here the process dies after the model
// streamed its whole reply and before that one write: the page saw a reply that is stored nowhere.
// The process that takes the run over makes the call again, and this model says something else.
const ACTOR = "mid-step";
const MODULE = "tests/faults/support/talker-agent.ts";

let cluster: FaultCluster | undefined;
const servers: ServerProcess[] = [];

beforeAll(async () => {
  cluster = await startFaultCluster("crash_mid_step");
}, 60_000);

afterAll(async () => {
  await Promise.all(servers.map((server) => server.kill()));
  await cluster?.stop();
});

async function serve(env: Record<string, string>): Promise<ServerProcess> {
  const started = await startServer({ env: { PREPICK_AGENTS_MODULE: MODULE, ...env } });
  servers.push(started);
  return started;
}

const textOf = (message: UIMessage | undefined) =>
  (message?.parts ?? []).map((part) => (part.type === "text" ? part.text : "")).join("");

describe("a process killed between a model call's streamed frames and their one write", {
  timeout: 120_000,
}, () => {
  it("leaves the page's unstored reply behind: on reconnecting it shows the call made again, once", async () => {
    if (!cluster) throw new Error("the PostgreSQL cluster did not start");
    const url = await cluster.freshDatabase();
    const doomed = await serve({
      DATABASE_URL: url,
      TALKER_ATTEMPT: "first",
      PREPICK_CRASH_BEFORE: "stream:step-start:0",
    });
    // The page talks to whichever process is alive, as behind a load balancer.
    let live = doomed.url;
    const transport = new AgentChatTransport({
      api: "http://prepick.test",
      actorId: ACTOR,
      fetch: (input, init) => fetch(String(input).replace("http://prepick.test", live), init),
    });
    const chat = new Chat({ id: "thread-mid-step", transport });
    await chat.sendMessage({ text: "Talk to me" });
    expect((await doomed.exited).signal).toBe("SIGKILL");

    // The page saw the run start (stored: frame 1) and the whole first reply, unstored.
    const seen = transport.run("thread-mid-step")?.frames ?? [];
    expect(seen[0]).toMatchObject({ seq: 1, frame: { kind: "run-start" } });
    expect(seen.slice(1).every((frame) => frame.unstored === true)).toBe(true);
    expect(seen.slice(1).map(({ frame }) => frame.kind)).toContain("text-delta");
    expect(textOf(chat.messages.at(-1))).toBe(talkerWords("first").join(""));

    await cluster.expireLeases(url);
    const survivor = await serve({ DATABASE_URL: url, TALKER_ATTEMPT: "second" });
    live = survivor.url;
    await chat.resumeStream();

    // One reply, the second attempt's: the first one's words were dropped, not kept beside it.
    const assistant = chat.messages.at(-1);
    expect(assistant?.role).toBe("assistant");
    expect(textOf(assistant)).toBe(talkerWords("second").join(""));
    expect((assistant?.parts ?? []).filter((part) => part.type === "text")).toHaveLength(1);
    const held = transport.run("thread-mid-step")?.frames ?? [];
    expect(held.map(({ seq }) => seq)).toEqual(held.map((_, index) => index + 1));
    expect(held.some(({ unstored }) => unstored)).toBe(false);
    expect(held.at(-1)?.frame).toEqual({ kind: "run-finish", status: "completed" });

    // The stream holds the call once, as the second attempt made it, numbered as the page has it.
    const thread = await apiClient(survivor.url, ACTOR).get("/agent/threads/thread-mid-step");
    const stored = (thread.body as { messages: { frames?: { seq: number; frame: { kind: string } }[] }[] })
      .messages[1]?.frames;
    expect(stored?.map(({ seq, frame }) => ({ seq, frame }))).toEqual(
      held.map(({ seq, frame }) => ({ seq, frame })),
    );
    expect(stored?.filter(({ frame }) => frame.kind === "step-start")).toHaveLength(1);
  });
});
