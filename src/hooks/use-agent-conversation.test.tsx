// @vitest-environment jsdom
import { act, cleanup, renderHook, waitFor } from "@testing-library/react";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { AgUiChatTransport } from "@/lib/prepick/transport/ag-ui";
import { AgentChatTransport } from "@/lib/prepick/transport/agent-chat-transport";
import type { ConversationTransport } from "@/lib/prepick/transport/conversation-transport";
import { holdSlowTool, refactorer, slow, slowGate } from "../../server/testing/test-agents";
import { startAgentServer } from "./agent-server.fixture";
import { englishMessages } from "./prepick-messages";
import type { ElicitationBlock } from "./transcript-types";
import { type UseAgentConversationOptions, useAgentConversation } from "./use-agent-conversation";
import { usePendingCalls } from "./use-pending-calls";

let server: Awaited<ReturnType<typeof startAgentServer>>;
beforeAll(async () => {
  server = await startAgentServer([refactorer, slow]);
}, 60_000);
afterAll(async () => {
  await server?.close();
});
afterEach(cleanup);

const WAIT = { timeout: 15_000 };
let threads = 0;
const nextThread = () => `conversation-${++threads}-${Date.now()}`;

/** A transport to one of the reference server's agents, acting as `actorId`. */
type TransportFor = (
  agent: string,
  actorId?: string,
  fetch?: typeof globalThis.fetch,
) => ConversationTransport;

/** The server's own wire: `POST /agent/chat`, threads read from `GET /agent/threads/:threadId`. */
function transportFor(agent: string, actorId = "ada", fetch?: typeof globalThis.fetch) {
  return new AgentChatTransport({ api: server.url, actorId, agent, ...(fetch ? { fetch } : {}) });
}

/**
 * AG-UI: `POST /agent/ag-ui` through `@ag-ui/client`'s `HttpAgent`, the actor named as the
 * reference client names it, and each thread kept in the page's `localStorage` (as the demo's
 * AG-UI page keeps it) so another transport on the same page can rebuild it.
 */
const agUiTransportFor: TransportFor = (agent, actorId = "ada", fetch) =>
  new AgUiChatTransport({
    url: `${server.url}/agent/ag-ui?agent=${encodeURIComponent(agent)}`,
    headers: { "x-actor-id": actorId },
    storage: window.localStorage,
    ...(fetch ? { fetch } : {}),
  });

const transports: [string, TransportFor][] = [
  ["AgentChatTransport", transportFor],
  ["AgUiChatTransport", agUiTransportFor],
];

function mount(options: UseAgentConversationOptions) {
  return renderHook(() => useAgentConversation({ drafts: null, ...options }));
}

/** The texts of the conversation's blocks, in order. */
function texts(conversation: ReturnType<typeof useAgentConversation>): string[] {
  return conversation.messages.flatMap((message) =>
    message.blocks.flatMap((block) => (block.type === "text" ? [block.text] : [])),
  );
}

function questionSet(conversation: ReturnType<typeof useAgentConversation>): ElicitationBlock | undefined {
  return conversation.elicitations[0];
}

/** The intake's questions with their pre-picked answers, as the refactorer asks them. */
const INTAKE_PRE_PICKS = [
  { id: "scope", defaults: ["module"], value: ["module"], touched: false },
  { id: "tests", defaults: ["unit"], value: ["unit"], touched: false },
];

/** Each question of a set with its pre-picked answer and its value now. */
function prePicks(block: ElicitationBlock | undefined) {
  return block
    ?.getSnapshot()
    .questions.map(({ id, defaults, value, touched }) => ({ id, defaults, value, touched }));
}

/** Where the stored thread's latest run stands, read from the server (for either transport's thread). */
async function storedRunStatus(threadId: string, actorId = "ada"): Promise<string | undefined> {
  const read = await transportFor("slow", actorId).client.thread(threadId);
  if (!read.ok) return undefined;
  const runs = read.result.messages.filter((message) => message.role === "assistant");
  return runs.at(-1)?.status;
}

describe.each(transports)("useAgentConversation over %s against the reference server", (_, transportOf) => {
  it("shows a question set pending with the agent's pre-picks, and goes on in the same message once answered", async () => {
    const threadId = nextThread();
    const { result } = mount({ transport: transportOf("refactorer"), threadId, load: false });
    expect(result.current.status).toBe("ready");
    act(() => result.current.setDraft("  Refactor the parser "));
    act(() => result.current.send());
    expect(result.current.draft).toBe("");
    await waitFor(() => expect(result.current.status).toBe("waiting"), WAIT);
    const asked = result.current.messages[1]?.id;
    const block = questionSet(result.current);
    expect(block?.getSnapshot().phase).toBe("pending");
    expect(prePicks(block)).toEqual(INTAKE_PRE_PICKS);
    act(() => block?.setValue("scope", "file"));
    await act(() => block?.submit());
    // The reply streams on into the message that asked, and reads back the answer the person
    // changed. (The status is "ready" for a moment between the answer and the resumed stream:
    // wait for the reply itself.)
    await waitFor(
      () => expect(texts(result.current).join(" ")).toContain("How much should I cover? **This file**"),
      WAIT,
    );
    await waitFor(() => expect(result.current.status).toBe("ready"), WAIT);
    expect(questionSet(result.current)?.getSnapshot().settled?.outcome).toMatchObject({
      answers: { scope: ["file"], tests: ["unit"] },
      skipped: false,
    });
    expect(result.current.messages.map((message) => message.role)).toEqual(["user", "assistant"]);
    expect(result.current.messages[1]?.id).toBe(asked);
    expect(result.current.error).toBeUndefined();
    expect(await storedRunStatus(threadId)).toBe("completed");
  });

  it("starts afresh for another thread id: its own messages, question sets, draft and error", async () => {
    const transport = transportOf("refactorer");
    const first = nextThread();
    const { result, rerender } = renderHook(
      ({ threadId, load }) => useAgentConversation({ transport, threadId, load, drafts: null }),
      { initialProps: { threadId: first, load: false } },
    );
    act(() => result.current.send("Refactor the parser"));
    await waitFor(() => expect(result.current.status).toBe("waiting"), WAIT);
    act(() => result.current.setDraft("half a thought"));
    expect(result.current.elicitations).toHaveLength(1);

    rerender({ threadId: nextThread(), load: false });
    expect(result.current.messages).toEqual([]);
    expect(result.current.elicitations).toEqual([]);
    expect(result.current.draft).toBe("");
    expect(result.current.status).toBe("ready");

    // Back on the first thread, read from the server: its question set waits again.
    rerender({ threadId: first, load: true });
    await waitFor(() => expect(result.current.status).toBe("waiting"), WAIT);
    expect(result.current.elicitations.map((block) => block.getSnapshot().phase)).toEqual(["pending"]);
  });

  it("rebuilds a thread waiting on the person in another page, whose answer goes on in the same message", async () => {
    const threadId = nextThread();
    const first = mount({ transport: transportOf("refactorer"), threadId, load: false });
    act(() => first.result.current.send("Refactor the parser"));
    await waitFor(() => expect(first.result.current.status).toBe("waiting"), WAIT);
    const id = first.result.current.elicitations[0]?.id;
    first.unmount();

    // Another page on the same thread: a new transport and hook, which read the thread as stored.
    const { result } = mount({ transport: transportOf("refactorer"), threadId });
    await waitFor(() => expect(result.current.status).toBe("waiting"), WAIT);
    expect(result.current.messages.map((message) => message.role)).toEqual(["user", "assistant"]);
    expect(result.current.messages[0]?.message.parts).toEqual([
      { type: "text", text: "Refactor the parser" },
    ]);
    // The same question set, still answerable. (Over AG-UI the message showing a set still open
    // takes a new id on a reload: the stored thread keeps the interrupt, not the live message's id.)
    const asked = result.current.messages[1]?.id;
    const block = questionSet(result.current);
    expect(block?.id).toBe(id);
    expect(block?.getSnapshot().phase).toBe("pending");
    expect(prePicks(block)).toEqual(INTAKE_PRE_PICKS);
    act(() => block?.setValue("scope", "importers"));
    await act(() => block?.submit());
    await waitFor(
      () =>
        expect(texts(result.current).join(" ")).toContain(
          "How much should I cover? **Everything that imports it**",
        ),
      WAIT,
    );
    await waitFor(() => expect(result.current.status).toBe("ready"), WAIT);
    expect(result.current.messages.map((message) => message.role)).toEqual(["user", "assistant"]);
    expect(result.current.messages[1]?.id).toBe(asked);
    expect(await storedRunStatus(threadId)).toBe("completed");
  });

  it("puts a message that did not get through back in the draft, and sends it again on retry", async () => {
    let down = true;
    const flaky: typeof fetch = (input, init) =>
      down ? Promise.reject(new TypeError("fetch failed")) : fetch(input, init);
    const { result } = mount({
      transport: transportOf("refactorer", "ada", flaky),
      threadId: nextThread(),
      load: false,
    });
    act(() => result.current.send("Refactor the lexer"));
    await waitFor(() => expect(result.current.error?.kind).toBe("not-sent"), WAIT);
    expect(result.current.error?.message).toBe(englishMessages.composer.notSent("fetch failed"));
    expect(result.current.draft).toBe("Refactor the lexer");
    expect(result.current.messages).toEqual([]);
    expect(result.current.status).toBe("ready");

    down = false;
    act(() => result.current.retry());
    expect(result.current.error).toBeUndefined();
    await waitFor(() => expect(result.current.status).toBe("waiting"), WAIT);
    expect(result.current.draft).toBe("");
    expect(result.current.messages[0]?.message.parts).toEqual([{ type: "text", text: "Refactor the lexer" }]);
  });
});

// These have no AG-UI request behind them, so they run over the server's own wire only (docs/ag-ui.md,
// "What does not carry").
describe("useAgentConversation over AgentChatTransport against the reference server", () => {
  // AG-UI has no request that rejoins a running run, and AgUiChatTransport stores a thread when a
  // run ends: a page reloaded mid-run over AG-UI shows the thread as the previous run left it.
  it("reads the thread and follows a run that is still going, as a reloaded page does", async () => {
    const release = holdSlowTool();
    const threadId = nextThread();
    const first = mount({ transport: transportFor("slow"), threadId, load: false });
    act(() => first.result.current.send("wait a bit"));
    await waitFor(() => expect(slowGate.started).toBe(1), WAIT);
    first.unmount();

    // Another page on the same thread: it reads what is stored and follows the run from there.
    const reloaded = transportFor("slow");
    const { result } = mount({ transport: reloaded, threadId });
    await waitFor(() => expect(result.current.messages.length).toBe(2), WAIT);
    expect(reloaded.runStatus(threadId)).toBe("running");
    // Nothing but the run's own frames can bring the tool's output: the page follows the run.
    release();
    const tool = () => result.current.messages[1]?.blocks.find((block) => block.type === "tool");
    await waitFor(() => expect(tool()).toMatchObject({ toolName: "wait_a_bit", status: "done" }), WAIT);
    expect(tool()).toMatchObject({ output: { waited: true } });
    await waitFor(() => expect(result.current.status).toBe("ready"), WAIT);
    expect(await storedRunStatus(threadId)).toBe("completed");
  });

  // AG-UI has no cancel request: over AgUiChatTransport Stop closes the run's connection and the
  // server's run goes on.
  it("stops the reply and cancels the run on the server", async () => {
    const release = holdSlowTool();
    const threadId = nextThread();
    const { result } = mount({ transport: transportFor("slow"), threadId, load: false });
    act(() => result.current.send("wait a bit"));
    await waitFor(() => expect(slowGate.started).toBe(1), WAIT);
    act(() => result.current.stop());
    await waitFor(() => expect(result.current.status).toBe("ready"), WAIT);
    // The run is flagged and ends as cancelled at its next checkpoint, once the tool returns.
    release();
    await expect.poll(() => storedRunStatus(threadId), WAIT).toBe("cancelled");
  });

  // AgUiChatTransport reads its thread from the page's own storage, not from the server.
  it("says so when the thread cannot be read, until the error is cleared", async () => {
    const refusing: typeof fetch = (input, init) =>
      String(input).includes("/agent/threads/")
        ? Promise.resolve(Response.json({ error: "The store is down." }, { status: 503 }))
        : fetch(input, init);
    const { result } = mount({
      transport: transportFor("refactorer", "ada", refusing),
      threadId: nextThread(),
    });
    await waitFor(() => expect(result.current.error?.kind).toBe("load"), WAIT);
    expect(result.current.error?.message).toBe(englishMessages.chat.loadFailed("The store is down."));
    act(() => result.current.clearError());
    expect(result.current.error).toBeUndefined();
  });

  // An interrupt settled elsewhere stays open in an AG-UI client until it resumes it (AG-UI has no
  // event that withdraws one), and the server does not stream that run's continuation to it.
  it("follows the run when a question set it shows waiting is answered elsewhere (the inbox, another tab)", async () => {
    const threadId = nextThread();
    const transport: ConversationTransport = transportFor("refactorer", "bea");
    const other = transportFor("refactorer", "bea");
    const page = renderHook(() => {
      const inbox = usePendingCalls({ transport: { client: other.client }, drafts: null });
      return {
        inbox,
        conversation: useAgentConversation({ transport, threadId, load: false, inbox, drafts: null }),
      };
    });
    const current = () => page.result.current.conversation;
    act(() => current().send("Refactor the printer"));
    await waitFor(() => expect(current().status).toBe("waiting"), WAIT);
    const id = questionSet(current())?.id ?? "";
    // The page holds no stream while the run waits; the inbox lists the call.
    await waitFor(
      () => expect(page.result.current.inbox.calls.map(({ call }) => call.id)).toEqual([id]),
      WAIT,
    );
    const skipped = await other.client.skip(id);
    expect(skipped.ok).toBe(true);
    // The inbox hears it settled; the conversation follows the run to its end.
    await waitFor(() => expect(current().status).toBe("ready"), WAIT);
    expect(questionSet(current())?.getSnapshot().phase).toBe("settled");
    expect(current().messages).toHaveLength(2);
    expect(texts(current()).join(" ")).toContain("Refactor the printer");
    expect(await storedRunStatus(threadId, "bea")).toBe("completed");
  });
});
