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

/** Still running. */
export const Running: Story = {
  args: { block: toolBlock("m1", { id: "c1", toolName: "search_issues", input, status: "running" }) },
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
};

/** Its run was cancelled while it waited for a decision: nobody rejected it. */
export const Cancelled: Story = {
  args: { block: toolBlock("m1", deniedPurge) },
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByText("Cancelled")).toBeVisible();
  },
};

/** Failed, in the dark theme. */
export const Dark: Story = { ...Failed, globals: { theme: "dark" } };
