// @vitest-environment jsdom
import { act, cleanup, renderHook, waitFor } from "@testing-library/react";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
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

function transportFor(agent: string, actorId = "ada", fetch?: typeof globalThis.fetch) {
  return new AgentChatTransport({ api: server.url, actorId, agent, ...(fetch ? { fetch } : {}) });
}

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

/** Where the stored thread's latest run stands, read from the server as a reload would. */
async function storedRunStatus(threadId: string, actorId = "ada"): Promise<string | undefined> {
  const read = await transportFor("slow", actorId).client.thread(threadId);
  if (!read.ok) return undefined;
  const runs = read.result.messages.filter((message) => message.role === "assistant");
  return runs.at(-1)?.status;
}

describe("useAgentConversation against the reference server", () => {
  it("waits on the person while a question set is pending, and goes on in the same message once answered", async () => {
    const { result } = mount({ transport: transportFor("refactorer"), threadId: nextThread(), load: false });
    expect(result.current.status).toBe("ready");
    act(() => result.current.setDraft("  Refactor the parser "));
    act(() => result.current.send());
    expect(result.current.draft).toBe("");
    await waitFor(() => expect(result.current.status).toBe("waiting"), WAIT);
    const block = questionSet(result.current);
    expect(block?.getSnapshot().phase).toBe("pending");
    await act(() => block?.submit());
    await waitFor(() => expect(result.current.status).toBe("ready"), WAIT);
    expect(result.current.messages.map((message) => message.role)).toEqual(["user", "assistant"]);
    expect(texts(result.current).join(" ")).toContain("Refactor the parser");
    expect(result.current.error).toBeUndefined();
  });

  it("starts afresh for another thread id: its own messages, question sets, draft and error", async () => {
    const transport = transportFor("refactorer");
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

  it("puts a message that did not get through back in the draft, and sends it again on retry", async () => {
    let down = true;
    const flaky: typeof fetch = (input, init) =>
      down ? Promise.reject(new TypeError("fetch failed")) : fetch(input, init);
    const { result } = mount({
      transport: transportFor("refactorer", "ada", flaky),
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
