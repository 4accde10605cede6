// @vitest-environment jsdom
import { act, cleanup, renderHook } from "@testing-library/react";
import type { UIMessage } from "ai";
import { afterEach, describe, expect, it } from "vitest";
import type { ElicitationRequest } from "@/lib/prepick/core/question";
import { bookingIntake, scopeQuestion } from "@/lib/prepick/core/spec-examples";
import { createElicitation } from "./create-elicitation";
import { type DraftStorage, draftKey } from "./draft-storage";
import type { ElicitationBlock } from "./transcript-types";
import { type UseChatTranscriptOptions, useChatTranscript } from "./use-chat-transcript";

// The spec's scope, then its contact and notes.
const request: ElicitationRequest = {
  source: "intake",
  questions: [scopeQuestion, ...bookingIntake.questions.slice(1)],
};

/** A storage in memory, as a test or an app may pass its own. */
function memoryStorage(): DraftStorage & { items: Map<string, string> } {
  const items = new Map<string, string>();
  return {
    items,
    getItem: (key) => items.get(key) ?? null,
    setItem: (key, value) => void items.set(key, value),
    removeItem: (key) => void items.delete(key),
  };
}

afterEach(() => {
  cleanup();
  sessionStorage.clear();
});

describe("a pending draft", () => {
  it("is saved as the person goes, and a new block from the same storage (a reload) restores it", () => {
    const drafts = memoryStorage();
    const before = createElicitation({ id: "intake-1", request, drafts });
    before.setValue("scope", "file");
    before.setIndex(1);
    before.setValue("contact", "sam@exa");
    expect(JSON.parse(drafts.items.get(draftKey("intake-1")) ?? "null")).toEqual({
      version: 1,
      values: { scope: ["file"], contact: ["sam@exa"] },
      index: 1,
    });

    const after = createElicitation({ id: "intake-1", request, drafts });
    const snapshot = after.getSnapshot();
    expect(snapshot.index).toBe(1);
    expect(snapshot.questions.map((q) => [q.id, q.value, q.touched])).toEqual([
      ["scope", ["file"], true],
      ["contact", ["sam@exa"], true],
      ["notes", [], false],
    ]);
  });

  it("is kept per question set", () => {
    const drafts = memoryStorage();
    createElicitation({ id: "intake-1", request, drafts }).setValue("scope", "file");
    expect(createElicitation({ id: "intake-2", request, drafts }).getQuestion("scope")?.touched).toBe(false);
  });

  it("is forgotten when the set settles, is skipped, settles elsewhere or is dismissed", async () => {
    const drafts = memoryStorage();
    const ways: ((block: ElicitationBlock) => Promise<void> | void)[] = [
      async (block) => {
        block.setValue("contact", "sam@example.com");
        await block.submit();
      },
      async (block) => {
        await block.skip();
        await block.skip();
      },
      (block) => block.settle({ answers: {}, skipped: true, defaulted: [], summary: "" }),
      (block) => block.dismiss(),
    ];
    for (const [index, way] of ways.entries()) {
      const id = `set-${index}`;
      const block = createElicitation({ id, request, drafts });
      block.setValue("scope", "file");
      expect(drafts.items.has(draftKey(id))).toBe(true);
      await way(block);
      expect(block.getSnapshot().phase).not.toBe("pending");
      expect(drafts.items.has(draftKey(id))).toBe(false);
    }
  });

  it("is not restored into a set that starts settled, and is forgotten there", () => {
    const drafts = memoryStorage();
    createElicitation({ id: "intake-1", request, drafts }).setValue("scope", "file");
    const settled = createElicitation({
      id: "intake-1",
      request,
      drafts,
      outcome: { answers: { scope: ["module"] }, skipped: false, defaulted: ["scope"], summary: "" },
    });
    expect(settled.getSnapshot().phase).toBe("settled");
    expect(drafts.items.size).toBe(0);
  });

  it("gives way to values the caller passes, and to a stored draft it cannot read", () => {
    const drafts = memoryStorage();
    createElicitation({ id: "intake-1", request, drafts }).setValue("scope", "file");
    const given = createElicitation({ id: "intake-1", request, drafts, values: { contact: ["a@b.co"] } });
    expect(given.getQuestion("scope")?.touched).toBe(false);

    drafts.items.set(draftKey("intake-2"), "{not json");
    drafts.items.set(
      draftKey("intake-3"),
      JSON.stringify({ version: 1, values: { scope: "file" }, index: 0 }),
    );
    drafts.items.set(draftKey("intake-4"), JSON.stringify({ version: 1, values: { gone: ["x"] }, index: 9 }));
    for (const id of ["intake-2", "intake-3"]) {
      expect(createElicitation({ id, request, drafts }).getQuestion("scope")?.touched).toBe(false);
    }
    // Values for questions the set does not have are dropped; the cursor stays on the set.
    const foreign = createElicitation({ id: "intake-4", request, drafts }).getSnapshot();
    expect(foreign.questions.every((q) => !q.touched)).toBe(true);
    expect(foreign.index).toBe(2);
  });

  it("loses only itself when the storage refuses: the form goes on", async () => {
    const refusing: DraftStorage = {
      getItem: () => {
        throw new Error("SecurityError");
      },
      setItem: () => {
        throw new Error("QuotaExceededError");
      },
      removeItem: () => {
        throw new Error("SecurityError");
      },
    };
    const block = createElicitation({ id: "intake-1", request, drafts: refusing });
    block.setValue("contact", "sam@example.com");
    await block.submit();
    expect(block.getSnapshot().phase).toBe("settled");
  });
});

function chatWith(messages: UIMessage[]) {
  return {
    messages,
    resumeStream: async () => {},
    addToolOutput: async () => {},
    addToolApprovalResponse: async () => {},
  };
}

const pendingAsk: UIMessage[] = [
  { id: "u1", role: "user", parts: [{ type: "text", text: "Refactor the parser" }] },
  {
    id: "a1",
    role: "assistant",
    parts: [
      {
        type: "dynamic-tool",
        toolName: "ask",
        toolCallId: "intake-run-7",
        state: "input-available",
        input: request,
        providerExecuted: true,
      },
    ],
  },
];

/** The page's hook, mounted on `messages`: what a load or a reload of the page does. */
function mount(messages: UIMessage[], options: UseChatTranscriptOptions = {}) {
  const { result, unmount } = renderHook(() => useChatTranscript(chatWith(messages), options));
  const block = result.current.elicitations[0];
  if (!block) throw new Error("no question set in the transcript");
  return { block, unmount };
}

describe("useChatTranscript's drafts", () => {
  it("keeps them in the browser's session storage by default, so a reload brings the draft back", () => {
    const page = mount(pendingAsk);
    act(() => {
      page.block.setValue("scope", "file");
      page.block.setIndex(1);
    });
    expect(sessionStorage.getItem(draftKey("intake-run-7"))).not.toBeNull();
    page.unmount();

    const reloaded = mount(pendingAsk);
    expect(reloaded.block).not.toBe(page.block);
    expect(reloaded.block.getSnapshot().index).toBe(1);
    expect(reloaded.block.getQuestion("scope")?.value).toEqual(["file"]);
  });

  it("forgets the draft once the reloaded set comes back settled", () => {
    const page = mount(pendingAsk);
    act(() => page.block.setValue("scope", "file"));
    page.unmount();
    const settled = pendingAsk.map((message) =>
      message.id !== "a1"
        ? message
        : {
            ...message,
            parts: [
              {
                type: "dynamic-tool" as const,
                toolName: "ask",
                toolCallId: "intake-run-7",
                state: "output-available" as const,
                input: request,
                output: { answers: { scope: ["file"] }, skipped: false, defaulted: [], summary: "" },
                providerExecuted: true,
              },
            ],
          },
    );
    const reloaded = mount(settled);
    expect(reloaded.block.getSnapshot().phase).toBe("settled");
    expect(sessionStorage.getItem(draftKey("intake-run-7"))).toBeNull();
  });

  it("keeps nothing with `drafts: null`, and uses storage of the app's own when given", () => {
    const none = mount(pendingAsk, { drafts: null });
    act(() => none.block.setValue("scope", "file"));
    expect(sessionStorage.length).toBe(0);
    none.unmount();

    const own = memoryStorage();
    const page = mount(pendingAsk, { drafts: own });
    act(() => page.block.setValue("scope", "file"));
    expect(own.items.has(draftKey("intake-run-7"))).toBe(true);
    expect(sessionStorage.length).toBe(0);
  });
});
