import type { Meta, StoryObj } from "@storybook/react-vite";
import { useState, useSyncExternalStore } from "react";
import { expect, userEvent, waitFor, within } from "storybook/test";
import type { PendingCall } from "@/lib/prepick/core/inbox";
import { AgentInbox } from "./agent-inbox";
import { inboxOf, waitingApproval, waitingQuestions } from "./inbox.fixture";

const TITLES: Record<string, string> = {
  lexer: "Refactor the lexer",
  cache: "Purge the staging cache",
  dinner: "Book a table for Friday",
};

/** An inbox over a live store whose answers settle in the page. */
function InboxStory({ calls }: { calls: PendingCall[] }) {
  const [store] = useState(() => inboxOf(calls, 150));
  const snapshot = useSyncExternalStore(store.subscribe, store.getSnapshot, store.getSnapshot);
  return (
    <AgentInbox calls={snapshot.calls} threadTitle={(id) => TITLES[id]} onOpenThread={() => undefined} />
  );
}

const meta = {
  title: "Chat/AgentInbox",
  component: InboxStory,
  decorators: [
    (Story) => (
      <div className="mx-auto max-w-2xl">
        <Story />
      </div>
    ),
  ],
} satisfies Meta<typeof InboxStory>;

export default meta;
type Story = StoryObj<typeof meta>;

const countOf = (canvasElement: HTMLElement) =>
  canvasElement.querySelector("[data-slot=inbox-count]")?.textContent ?? "";

/** Nothing waits: a sentence says so, and no zero badge shows. */
export const Empty: Story = {
  args: { calls: [] },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await expect(canvas.getByText("Nothing waits for you.")).toBeVisible();
    await expect(countOf(canvasElement)).toBe("");
    // The heading's count is silent: a page says its count once, from its header.
    await expect(canvas.queryByRole("status")).toBeNull();
  },
};

/** A few calls across three conversations: two question sets and an approval. */
export const FewWaiting: Story = {
  args: {
    calls: [waitingQuestions("lexer"), waitingApproval("cache"), waitingQuestions("dinner", "booking")],
  },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await expect(countOf(canvasElement)).toBe("3");
    await userEvent.click(canvas.getByRole("button", { name: /2 questions from refactorer/ }));
    await expect(canvas.getByText("How much should I cover?")).toBeVisible();
  },
};

/**
 * Approving a call settles it, and it leaves the list; the count says one fewer, and a line in its
 * place says what happened and takes the focus.
 */
export const SettledLeaving: Story = {
  args: { calls: [waitingApproval("cache"), waitingQuestions("lexer")] },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await userEvent.click(canvas.getByRole("button", { name: /Approve purge_cache/ }));
    await userEvent.click(canvas.getByRole("button", { name: /^Approve$/ }));
    await waitFor(() => expect(canvas.queryByRole("button", { name: /Approve purge_cache/ })).toBeNull());
    await expect(countOf(canvasElement)).toBe("1");
    const notice = canvasElement.querySelector("[data-slot=agent-inbox-notice]");
    await expect(notice).toHaveTextContent("Decided. The agent goes on in the conversation.");
    await expect(notice).toHaveFocus();
  },
};

/** Forty calls in twenty conversations. */
export const LongList: Story = {
  args: {
    calls: Array.from({ length: 40 }, (_, index) =>
      index % 2 === 0 ? waitingQuestions(`thread-${index % 20}`) : waitingApproval(`thread-${index % 20}`),
    ),
  },
  play: async ({ canvasElement }) => {
    await expect(countOf(canvasElement)).toBe("40");
  },
};
