import type { Meta, StoryObj } from "@storybook/react-vite";
import { useState } from "react";
import { expect, fn, userEvent, waitFor, within } from "storybook/test";
import type { SendDecision } from "@/hooks/approval-store";
import type { ApprovalState } from "@/hooks/transcript-types";
import { ToolCallError } from "@/lib/prepick/transport";
import { approvalBlock } from "./chat.fixture";
import { ChatApproval } from "./chat-approval";
import { expectDarkTheme } from "./theme.fixture";

/** Mounts a fresh approval block per story render, with the real approval machine. */
function ApprovalStory({
  state,
  send,
  input,
  description,
  autoFocus,
  expiresInMs,
}: {
  state?: ApprovalState;
  send?: SendDecision;
  input?: unknown;
  description?: string;
  autoFocus?: boolean;
  /** Its run's deadline, this long after the story mounts. */
  expiresInMs?: number;
}) {
  const [block] = useState(() =>
    approvalBlock("m1", {
      ...(state ? { state } : {}),
      ...(send ? { send } : {}),
      ...(input !== undefined ? { input } : {}),
      ...(description !== undefined ? { description } : {}),
      ...(expiresInMs !== undefined ? { expiresAt: new Date(Date.now() + expiresInMs).toISOString() } : {}),
    }),
  );
  return <ChatApproval block={block} autoFocus={autoFocus} />;
}

const meta = {
  title: "Chat/ChatApproval",
  component: ApprovalStory,
  decorators: [
    (Story) => (
      <div className="mx-auto max-w-2xl">
        <Story />
      </div>
    ),
  ],
} satisfies Meta<typeof ApprovalStory>;

export default meta;
type Story = StoryObj<typeof meta>;

/** Waiting for the person's word: the question, the tool's input, Approve and Reject. */
export const Pending: Story = {
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await expect(canvas.getByRole("region", { name: "Allow purge_cache to run?" })).toBeVisible();
    await expect(canvas.getByText("Input")).toBeVisible();
    await expect(canvas.getByRole("button", { name: "Approve" })).toBeEnabled();
    await expect(canvas.getByRole("button", { name: "Reject" })).toBeEnabled();
    await expect(canvas.getByRole("textbox", { name: /Reason/ })).toHaveValue("");
    await expect(canvas.queryByRole("alert")).toBeNull();
  },
};

/** Waiting under its run's deadline: when to decide by and how long is left, and that no one answers for the person. */
export const WithDeadline: Story = {
  args: { expiresInMs: 12 * 60_000 + 30_000 },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await expect(
      canvas.getByText(/^Decide by .+ \(12 minutes left\)\. If no one decides by then, the agent stops\.$/),
    ).toBeVisible();
    await expect(canvas.getByRole("button", { name: "Approve" })).toBeEnabled();
  },
};

/** The deadline passes while the card is open: it says the call expired undecided. */
export const DeadlinePasses: Story = {
  args: { expiresInMs: 1_500 },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await expect(canvas.getByText(/^Decide by .+ \(\d seconds? left\)/)).toBeVisible();
    await expect(
      await canvas.findByText(
        /^This expired at .+ before anyone decided, so the agent stopped\.$/,
        {},
        { timeout: 5_000 },
      ),
    ).toBeVisible();
  },
};

/** Approved: the decision in place of the buttons. */
export const Approved: Story = {
  args: { state: { status: "settled", approved: true, conflict: false } },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await expect(canvas.getByRole("region", { name: "purge_cache approved" })).toBeVisible();
    await expect(canvas.getByText("You approved this call.")).toBeVisible();
    await expect(canvas.queryByRole("button")).toBeNull();
  },
};

/** Rejected, with the reason the model was told. */
export const Rejected: Story = {
  args: {
    state: { status: "settled", approved: false, reason: "Not during business hours", conflict: false },
  },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await expect(canvas.getByRole("region", { name: "purge_cache rejected" })).toBeVisible();
    await expect(canvas.getByText("You rejected this call. Reason: Not during business hours")).toBeVisible();
    await expect(canvas.queryByRole("button")).toBeNull();
  },
};

/** The decision did not get through; Retry sends it again. */
export const Failed: Story = {
  args: { state: { status: "failed", approved: true, error: "The server could not be reached. Try again." } },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await expect(canvas.getByRole("alert")).toHaveTextContent(
      "Your decision was not sent. Check your connection, then retry.",
    );
    await expect(canvas.getByRole("button", { name: "Retry" })).toBeEnabled();
    // Either decision can still be made instead.
    await expect(canvas.getByRole("button", { name: "Approve" })).toBeEnabled();
    await expect(canvas.getByRole("button", { name: "Reject" })).toBeEnabled();
  },
};

const send = fn<SendDecision>(async () => {});

/** Approve by keyboard: from the card, Tab reaches Approve first; Enter; the call shows as approved. */
export const ApproveByKeyboard: Story = {
  args: { send },
  beforeEach: () => {
    send.mockClear();
  },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    canvas.getByRole("region").focus();
    await userEvent.tab();
    await expect(canvas.getByRole("button", { name: "Approve" })).toHaveFocus();
    await userEvent.keyboard("{Enter}");
    await expect(await canvas.findByText("You approved this call.")).toBeVisible();
    await expect(send).toHaveBeenCalledOnce();
    await expect(send).toHaveBeenCalledWith(true, undefined);
  },
};

/**
 * Reject with a reason: type it and press Enter in the field. Enter while the field is still empty
 * decides nothing.
 */
export const RejectWithReason: Story = {
  args: { send },
  beforeEach: () => {
    send.mockClear();
  },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    const reason = canvas.getByRole("textbox", { name: /Reason/ });
    await userEvent.type(reason, "{Enter}");
    await expect(send).not.toHaveBeenCalled();
    await expect(canvas.getByRole("button", { name: "Approve" })).toBeEnabled();
    await userEvent.type(reason, "Wait until tonight{Enter}");
    await expect(
      await canvas.findByText(/You rejected this call\. Reason: Wait until tonight/),
    ).toBeVisible();
    await expect(send).toHaveBeenCalledOnce();
    await expect(send).toHaveBeenCalledWith(false, "Wait until tonight");
  },
};

const flaky = fn<SendDecision>(async () => {
  throw new ToolCallError({ kind: "network", error: "The server could not be reached." });
});

/** A failed decision says so in the person's words and offers Retry. */
export const FailsThenShowsRetry: Story = {
  args: { send: flaky },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await userEvent.click(canvas.getByRole("button", { name: "Approve" }));
    await expect(await canvas.findByRole("alert")).toHaveTextContent(
      "Your decision was not sent. Check your connection, then retry.",
    );
    await expect(canvas.getByRole("button", { name: "Retry" })).toBeEnabled();
  },
};

/** Pending, in the dark theme. */
export const Dark: Story = {
  globals: { theme: "dark" },
  play: async (context) => {
    await Pending.play?.(context);
    await expectDarkTheme(within(context.canvasElement).getByRole("region"));
  },
};

/**
 * As the chat block shows a new approval: it takes the focus, says what the tool does, and once
 * decided by keyboard the focus lands on the outcome rather than on the page.
 */
export const FocusedOnArrival: Story = {
  args: {
    send,
    autoFocus: true,
    description: "Purges one of the site's caches. Visitors see slower pages until it warms up again.",
  },
  beforeEach: () => {
    send.mockClear();
  },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    const card = canvas.getByRole("region", { name: /Allow purge_cache to run\?/ });
    await expect(card).toHaveFocus();
    await expect(card).toHaveAccessibleDescription(/Purges one of the site's caches/);
    await userEvent.tab();
    await expect(canvas.getByRole("button", { name: "Approve" })).toHaveFocus();
    await userEvent.keyboard("{Enter}");
    // Decided, the card takes the focus back, named for the decision and described by its line.
    const decided = await canvas.findByRole("region", { name: /purge_cache approved/ });
    await waitFor(() => expect(decided).toHaveFocus());
    await expect(decided).toHaveAccessibleDescription(
      /Purges one of the site's caches.*You approved this call\./,
    );
  },
};

/** A 300-character word in the input and the description wraps inside the card. */
export const LongText: Story = {
  args: {
    input: { path: `/${"x".repeat(300)}` },
    description: `Deletes ${"y".repeat(300)} for good.`,
  },
  play: async ({ canvasElement }) => {
    const card = canvasElement.querySelector<HTMLElement>('[data-slot="chat-approval"]');
    await expect(card).not.toBeNull();
    const inside = [...(card?.querySelectorAll("*") ?? [])].every(
      (element) => element.getBoundingClientRect().right <= (card?.getBoundingClientRect().right ?? 0) + 1,
    );
    await expect(inside).toBe(true);
    await expect(card?.scrollWidth).toBeLessThanOrEqual(card?.clientWidth ?? 0);
  },
};
