// @vitest-environment jsdom
import { act, cleanup, render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import * as React from "react";
import { afterEach, describe, expect, it } from "vitest";
import type { PendingCallsStore } from "@/hooks/pending-calls-store";
import { AgentInbox } from "./agent-inbox";
import { ChatThreadList } from "./chat-thread-list";
import { inboxOf, waitingApproval, waitingQuestions } from "./inbox.fixture";

afterEach(() => cleanup());

function LiveInbox({ store }: { store: PendingCallsStore }) {
  const { calls } = React.useSyncExternalStore(store.subscribe, store.getSnapshot, store.getSnapshot);
  return <AgentInbox calls={calls} threadTitle={(id) => (id === "t1" ? "Refactor the lexer" : undefined)} />;
}

function OpenableInbox({
  store,
  onOpenThread,
}: {
  store: PendingCallsStore;
  onOpenThread: (id: string) => void;
}) {
  const { calls } = React.useSyncExternalStore(store.subscribe, store.getSnapshot, store.getSnapshot);
  return <AgentInbox calls={calls} onOpenThread={onOpenThread} />;
}

describe("AgentInbox", () => {
  it("lists waiting calls grouped by conversation as named items, its count shown but not said again", () => {
    const store = inboxOf([waitingQuestions("t1"), waitingApproval("t2"), waitingQuestions("t1", "booking")]);
    render(<LiveInbox store={store} />);
    const inbox = screen.getByRole("region", { name: /Waiting for you/ });
    // The page's one live count is the header's: the heading's badge is silent.
    expect(within(inbox).queryByRole("status")).toBeNull();
    expect(inbox.querySelector("[data-slot=inbox-count]")?.textContent).toBe("3");
    const groups = within(inbox)
      .getAllByRole("listitem")
      .filter((item) => item.dataset.slot === "agent-inbox-group");
    expect(groups.map((group) => group.getAttribute("aria-label"))).toEqual([
      "Refactor the lexer",
      "Conversation with operator",
    ]);
    const first = groups[0] as HTMLElement;
    const calls = within(first).getAllByRole("listitem");
    expect(calls.map((call) => call.getAttribute("aria-label"))).toEqual([
      "2 questions from refactorer",
      "3 questions from booking",
    ]);
    for (const call of calls)
      expect(within(call).getByRole("button").getAttribute("aria-expanded")).toBe("false");
  });

  it("opens a call into the transcript's own form; once decided it leaves, and a line in the inbox says so and takes the focus", async () => {
    const user = userEvent.setup();
    const store = inboxOf([waitingQuestions("t1"), waitingApproval("t2")]);
    render(<LiveInbox store={store} />);
    const toggle = screen.getByRole("button", { name: /2 questions from refactorer/ });
    expect(toggle.getAttribute("aria-expanded")).toBe("false");
    await user.click(toggle);
    expect(toggle.getAttribute("aria-expanded")).toBe("true");
    expect(screen.getByText("How much should I cover?")).toBeTruthy();

    await user.click(screen.getByRole("button", { name: /Approve purge_cache/ }));
    const approve = screen.getByRole("button", { name: /^Approve$/ });
    await act(async () => {
      await user.click(approve);
    });
    expect(screen.queryByRole("button", { name: /Approve purge_cache/ })).toBeNull();
    expect(document.querySelector("[data-slot=inbox-count]")?.textContent).toBe("1");
    const notice = document.querySelector("[data-slot=agent-inbox-notice]") as HTMLElement;
    expect(notice.textContent).toContain("Decided. The agent goes on in the conversation.");
    expect(document.activeElement).toBe(notice);
  });

  it("offers the way to the conversation a call was answered for", async () => {
    const user = userEvent.setup();
    const opened: string[] = [];
    const store = inboxOf([waitingApproval("t2")]);
    render(<OpenableInbox store={store} onOpenThread={(id) => opened.push(id)} />);
    await user.click(screen.getByRole("button", { name: /Approve purge_cache/ }));
    await act(async () => {
      await user.click(screen.getByRole("button", { name: /^Approve$/ }));
    });
    const notice = document.querySelector("[data-slot=agent-inbox-notice]") as HTMLElement;
    await user.click(
      within(notice).getByRole("button", { name: /Open conversation: Conversation with operator/ }),
    );
    expect(opened).toEqual(["t2"]);
  });

  it("says so when nothing waits, with no zero badge", () => {
    render(<LiveInbox store={inboxOf([])} />);
    expect(screen.getByText("Nothing waits for you.")).toBeTruthy();
    expect(document.querySelector("[data-slot=badge]")).toBeNull();
  });
});

describe("ChatThreadList", () => {
  it("names each conversation, marks the open one, and opens another by keyboard", async () => {
    const user = userEvent.setup();
    const opened: string[] = [];
    const base = { createdAt: "2026-01-05T10:00:00.000Z", lastActiveAt: "2026-01-05T10:00:00.000Z" };
    render(
      <ChatThreadList
        selectedId="a"
        onSelect={(id) => opened.push(id)}
        threads={[
          { ...base, id: "a", agent: "refactorer", title: "Refactor the lexer", waiting: 1 },
          { ...base, id: "b", agent: "operator", title: "Purge the cache", waiting: 0 },
        ]}
      />,
    );
    const nav = screen.getByRole("navigation", { name: "Conversations" });
    // The count is said once, as a sentence; its badge's figure is hidden from the name.
    const buttons = [
      within(nav).getByRole("button", { name: /^Refactor the lexer\s*refactorer\s*1 waiting$/ }),
      within(nav).getByRole("button", { name: /^Purge the cache\s*operator$/ }),
    ];
    expect(within(nav).getAllByRole("button")).toEqual(buttons);
    expect(buttons[0]?.getAttribute("aria-current")).toBe("page");
    buttons[1]?.focus();
    await user.keyboard("{Enter}");
    expect(opened).toEqual(["b"]);
  });
});
