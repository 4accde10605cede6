// @vitest-environment jsdom

import { useChat } from "@ai-sdk/react";
import { act, cleanup, renderHook, waitFor } from "@testing-library/react";
import type { UIMessage } from "ai";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { AgentChatTransport } from "@/lib/prepick/transport/agent-chat-transport";
import { seedThread } from "../../server/testing/seed-thread";
import { plain } from "../../server/testing/test-agents";
import { startAgentServer } from "./agent-server.fixture";
import { useChatTranscript } from "./use-chat-transcript";

const TURNS = 120;
let server: Awaited<ReturnType<typeof startAgentServer>>;

beforeAll(async () => {
  server = await startAgentServer([plain]);
  await seedThread(server.store, {
    threadId: "long",
    actorId: "ada",
    turns: TURNS,
    deltas: 2,
    deltaChars: 5,
  });
}, 60_000);
afterAll(async () => {
  await server?.close();
});
afterEach(cleanup);

/** The person's messages, by their text. */
const asked = (messages: readonly UIMessage[]) =>
  messages
    .filter((message) => message.role === "user")
    .map((message) => (message.parts[0] as { text: string }).text);
const turns = (from: number, to: number) =>
  Array.from({ length: to - from }, (_, index) => `Turn ${from + index}`);

describe("a long thread read back", () => {
  it("loads the latest turns, then older pages on request, until none remain", async () => {
    const transport = new AgentChatTransport({ api: server.url, actorId: "ada" });
    const latest = await transport.loadThread("long");
    expect(asked(latest)).toEqual(turns(70, TURNS));
    expect(latest.at(-1)?.parts.some((part) => part.type === "text")).toBe(true);
    expect(transport.hasOlder("long")).toBe(true);
    // The run followed is the latest, whatever older pages are read.
    expect(transport.run("long")?.runId).toBe(`long-run-${TURNS - 1}`);
    expect(asked(await transport.loadOlder("long"))).toEqual(turns(20, 70));
    expect(asked(await transport.loadOlder("long", { limit: 15 }))).toEqual(turns(5, 20));
    expect(asked(await transport.loadOlder("long"))).toEqual(turns(0, 5));
    expect(transport.hasOlder("long")).toBe(false);
    expect(await transport.loadOlder("long")).toEqual([]);
    expect(transport.run("long")?.runId).toBe(`long-run-${TURNS - 1}`);
  });

  it("gives the transcript hasOlder and loadOlder, which puts the older page first", async () => {
    const transport = new AgentChatTransport({ api: server.url, actorId: "ada" });
    const { result } = renderHook(() => {
      const chat = useChat({ id: "long", transport });
      return { chat, transcript: useChatTranscript(chat, { transport, drafts: null }) };
    });
    expect(result.current.transcript.hasOlder).toBe(false);
    const latest = await transport.loadThread("long");
    act(() => result.current.chat.setMessages(latest));
    await waitFor(() => expect(result.current.transcript.messages).toHaveLength(100));
    expect(result.current.transcript.hasOlder).toBe(true);
    while (result.current.transcript.hasOlder) {
      await act(() => result.current.transcript.loadOlder());
    }
    expect(asked(result.current.chat.messages)).toEqual(turns(0, TURNS));
    expect(result.current.transcript.messages).toHaveLength(2 * TURNS);
    expect(result.current.transcript.loadingOlder).toBe(false);
  });
});
