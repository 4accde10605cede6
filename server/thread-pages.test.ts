import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { jsonStreamResponse } from "./http/json-stream";
import type { PrepickServer } from "./server";
import { call, chat, startServer } from "./testing/harness";
import { seedThread } from "./testing/seed-thread";
import { plain, refactorer } from "./testing/test-agents";

let server: PrepickServer;
const TURNS = 120;
const DELTAS = 4;

beforeAll(async () => {
  server = await startServer({ agents: [plain, refactorer] });
  await seedThread(server.store, {
    threadId: "long",
    actorId: "ada",
    turns: TURNS,
    deltas: DELTAS,
    deltaChars: 10,
  });
}, 60_000);
afterAll(async () => {
  await server.close();
}, 60_000);

interface Page {
  threadId: string;
  agent: string;
  nextCursor: string | null;
  messages: { role: string; id: string; parts?: { text: string }[]; lastSeq?: number; frames?: unknown[] }[];
}

async function page(threadId: string, query = ""): Promise<Page> {
  const response = await call(server, "GET", `/agent/threads/${threadId}${query}`, "ada");
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body as unknown as Page;
}

const userTexts = (read: Page) =>
  read.messages.filter((message) => message.role === "user").map((message) => message.parts?.[0]?.text);

describe("reading a long thread", () => {
  it("gives the latest 50 turns first, oldest first within the page, and older ones by cursor", async () => {
    const seen: (string | undefined)[][] = [];
    let read = await page("long");
    seen.push(userTexts(read));
    while (read.nextCursor !== null) {
      read = await page("long", `?cursor=${read.nextCursor}`);
      seen.push(userTexts(read));
    }
    expect(seen.map((texts) => texts.length)).toEqual([50, 50, 20]);
    expect(seen[0]?.[0]).toBe("Turn 70");
    expect(seen[0]?.at(-1)).toBe(`Turn ${TURNS - 1}`);
    // Every turn exactly once, in order, once the pages are put back together.
    expect(seen.reverse().flat()).toEqual(Array.from({ length: TURNS }, (_, turn) => `Turn ${turn}`));
  });

  it("takes a limit up to 200, and says there is nothing older when the page holds the first turn", async () => {
    const three = await page("long", "?limit=3");
    expect(userTexts(three)).toEqual(["Turn 117", "Turn 118", "Turn 119"]);
    const all = await page("long", "?limit=200");
    expect(userTexts(all)).toHaveLength(TURNS);
    expect(all.nextCursor).toBeNull();
    const rest = await page("long", `?limit=3&cursor=${three.nextCursor}`);
    expect(userTexts(rest)).toEqual(["Turn 114", "Turn 115", "Turn 116"]);
  });

  it("carries every stored frame of each turn, with lastSeq the last one", async () => {
    const read = await page("long", "?limit=1");
    const assistant = read.messages[1];
    expect(assistant).toMatchObject({
      id: "long-msg-119",
      role: "assistant",
      runId: "long-run-119",
      status: "completed",
    });
    expect(assistant?.frames).toEqual(await server.store.frames.after("long-run-119", 0, 1_000));
    expect(assistant?.lastSeq).toBe(DELTAS + 6);
  });

  it("reads a thread the server ran exactly as its stored frames, the fields clients read unchanged", async () => {
    const first = await chat(server, "ada", "Say hello", { agent: "plain" });
    await chat(server, "ada", "Say it again", { threadId: first.threadId });
    const read = await page(first.threadId);
    const runs = await server.store.runs.ofThread(first.threadId);
    expect(read).toEqual({
      threadId: first.threadId,
      agent: "plain",
      nextCursor: null,
      messages: await Promise.all(
        runs.flatMap((run) => [
          Promise.resolve(run.userMessage),
          server.store.frames.after(run.id, 0, 1_000).then((frames) => ({
            id: run.messageId,
            role: "assistant",
            runId: run.id,
            status: run.status,
            lastSeq: frames.at(-1)?.seq,
            frames,
          })),
        ]),
      ),
    });
  });
});

describe("a streamed JSON response", () => {
  it("produces the next chunk only when the client took the last one", async () => {
    let produced = 0;
    async function* pieces() {
      for (let index = 0; index < 1_000; index++) {
        produced++;
        yield `${"x".repeat(1_024)}`;
      }
    }
    const response = jsonStreamResponse({ pieces: pieces() });
    const reader = response.body?.getReader();
    const first = await reader?.read();
    expect(first?.value?.byteLength).toBeGreaterThanOrEqual(64 * 1024);
    await new Promise((resolve) => setTimeout(resolve, 50));
    // One chunk of about 64 KiB was asked for, so about 64 pieces of the 1 000 were made.
    expect(produced).toBeLessThan(80);
    await reader?.cancel();
  });

  it("cuts a client that leaves a chunk unread, and stops producing for it", async () => {
    let ended = false;
    async function* pieces() {
      try {
        for (;;) yield "y".repeat(1_024);
      } finally {
        ended = true;
      }
    }
    const response = jsonStreamResponse({ pieces: pieces(), stallMs: 30 });
    const reader = response.body?.getReader();
    await reader?.read();
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(ended).toBe(true);
    await expect(reader?.read()).rejects.toThrow(/read nothing for 30 ms/);
  });
});
