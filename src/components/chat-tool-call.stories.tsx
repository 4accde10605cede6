import type { Meta, StoryObj } from "@storybook/react-vite";
import { expect, userEvent, within } from "storybook/test";
import { toolBlock } from "./chat.fixture";
import { ChatToolCall } from "./chat-tool-call";

const meta = {
  title: "Chat/ChatToolCall",
  component: ChatToolCall,
  decorators: [
    (Story) => (
      <div className="mx-auto max-w-2xl">
        <Story />
      </div>
    ),
  ],
} satisfies Meta<typeof ChatToolCall>;

export default meta;
type Story = StoryObj<typeof meta>;

const input = { query: "flaky tests in src/core", limit: 5 };

/** Still running: closed to one line with its status; opened, its input and that it waits. */
export const Running: Story = {
  args: { block: toolBlock("m1", { id: "c1", toolName: "search_issues", input, status: "running" }) },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await expect(canvas.getByText("Running")).toBeVisible();
    const waiting = canvas.getByText("Waiting for the result…");
    await expect(waiting).not.toBeVisible();
    await userEvent.click(canvas.getByText("search_issues"));
    await expect(waiting).toBeVisible();
    await expect(canvas.getByText(/flaky tests in src\/core/)).toBeVisible();
  },
};

/** Done: the summary line opens to show input and output. */
export const Done: Story = {
  args: {
    block: toolBlock("m1", {
      id: "c1",
      toolName: "search_issues",
      input,
      status: "done",
      output: [{ id: 412, title: "answers.test.ts times out on CI" }],
    }),
  },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await userEvent.click(canvas.getByText("search_issues"));
    await expect(canvas.getByText(/answers\.test\.ts times out on CI/)).toBeVisible();
  },
};

/** Failed: open from the start, with the error. */
export const Failed: Story = {
  args: {
    block: toolBlock("m1", {
      id: "c1",
      toolName: "search_issues",
      input,
      status: "error",
      errorText: "search_issues: the issue tracker answered 503 Service Unavailable",
    }),
  },
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByText(/answered 503/)).toBeVisible();
  },
};

/** A call that waited for a person's decision and did not run. */
const deniedPurge = {
  id: "c1",
  toolName: "purge_cache",
  input: { region: "eu-west-1" },
  status: "denied",
} as const;

/** Rejected by the person before it ran. */
export const Denied: Story = {
  args: {
    block: toolBlock("m1", {
      ...deniedPurge,
      approval: { approved: false, reason: "Not during business hours" },
    }),
  },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await expect(canvas.getByText("Rejected")).toBeVisible();
    await userEvent.click(canvas.getByText("purge_cache"));
    await expect(canvas.getByText("Rejected: Not during business hours")).toBeVisible();
  },
};

/** Its run was cancelled while it waited for a decision: nobody rejected it. */
export const Cancelled: Story = {
  args: { block: toolBlock("m1", deniedPurge) },
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByText("Cancelled")).toBeVisible();
  },
};

/** Its run's deadline passed while it waited for a decision: nobody decided it, and it says so. */
export const Expired: Story = {
  args: { block: toolBlock("m1", { ...deniedPurge, expiresAt: "2026-12-01T09:00:00.000Z" }) },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await userEvent.click(canvas.getByText("purge_cache"));
    await expect(
      canvas.getByText(/^This expired at .+ before anyone decided, so the agent stopped\.$/),
    ).toBeVisible();
  },
};

/** Failed, in the dark theme. */
export const Dark: Story = { ...Failed, globals: { theme: "dark" } };

/**
 * Right to left: the disclosure's chevron points to the left while closed (where the text goes
 * on), and down once open, as it points right, then down, left to right.
 */
export const RightToLeft: Story = {
  args: Done.args,
  decorators: [
    (Story) => (
      <div dir="rtl">
        <Story />
      </div>
    ),
  ],
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    const trigger = canvas.getByText("search_issues").closest("summary");
    const chevron = trigger?.querySelector("svg");
    if (!trigger || !chevron) throw new Error("no disclosure chevron");
    /** The chevron's direction on screen: its scale applies first (a mirror), then its rotation (clockwise). */
    const pointing = () => {
      const style = getComputedStyle(chevron);
      const flipped = style.scale.startsWith("-1");
      const turn = style.rotate === "none" ? 0 : Number.parseFloat(style.rotate);
      const angle = ((((flipped ? 180 : 0) + turn) % 360) + 360) % 360;
      return ({ 0: "right", 90: "down", 180: "left", 270: "up" } as Record<number, string>)[angle];
    };
    // The chevron's transition is let finish so the direction read is the one that stays.
    const settle = () => Promise.all(chevron.getAnimations().map((animation) => animation.finished));
    await expect(pointing()).toBe("left");
    await userEvent.click(trigger);
    await settle();
    await expect(pointing()).toBe("down");
  },
};
