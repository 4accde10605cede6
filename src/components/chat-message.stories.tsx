import type { Meta, StoryObj } from "@storybook/react-vite";
import { expect, userEvent, within } from "storybook/test";
import {
  reasoningBlock,
  refactorerElicitation,
  textBlock,
  toolBlock,
  transcriptMessage,
  userMessage,
} from "./chat.fixture";
import { ChatMessage } from "./chat-message";

const meta = {
  title: "Chat/ChatMessage",
  component: ChatMessage,
  decorators: [
    (Story) => (
      <div className="mx-auto max-w-3xl">
        <Story />
      </div>
    ),
  ],
} satisfies Meta<typeof ChatMessage>;

export default meta;
type Story = StoryObj<typeof meta>;

/** The person's message: a bubble on the right. */
export const User: Story = {
  args: { message: userMessage("m1", "Refactor src/core/answers.ts so it reads top to bottom.") },
};

/** The assistant's reply. */
export const Assistant: Story = {
  args: {
    message: transcriptMessage("m2", "assistant", [
      textBlock("m2", "Done. I split `resolveAnswers` into three steps.\nThe unit tests pass."),
    ]),
  },
};

/** Text still streaming in, with a caret. */
export const Streaming: Story = {
  args: {
    message: transcriptMessage("m2", "assistant", [
      textBlock("m2", "I am reading the file and its te", true),
    ]),
  },
  play: async ({ canvasElement }) => {
    const message = canvasElement.querySelector("[data-slot=chat-message]");
    await expect(message).toHaveAttribute("data-streaming");
    await expect(canvasElement.querySelector("[data-slot=chat-message-caret]")).not.toBeNull();
  },
};

/** Reasoning stays collapsed under one line until the person opens it. */
export const Reasoning: Story = {
  args: {
    message: transcriptMessage("m2", "assistant", [
      reasoningBlock("m2", "The person wants this file only. Read it, then its tests, then change it."),
      textBlock("m2", "I will start with the file itself.", false, 1),
    ]),
  },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    const thought = canvas.getByText(/Read it, then its tests/);
    await expect(thought).not.toBeVisible();
    await userEvent.click(canvas.getByText("Reasoning"));
    await expect(thought).toBeVisible();
  },
};

/** Reasoning while the model is still thinking. */
export const ReasoningStreaming: Story = {
  args: {
    message: transcriptMessage("m2", "assistant", [reasoningBlock("m2", "The person wants", true)]),
  },
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByText("Thinking…")).toBeVisible();
  },
};

/** A turn that asked: the questions render inline, answerable, then the reply follows. */
export const WithQuestions: Story = {
  args: {
    message: transcriptMessage("m2", "assistant", [
      refactorerElicitation("m2"),
      toolBlock("m2", {
        id: "c1",
        toolName: "read_file",
        input: { path: "src/core/answers.ts" },
        status: "running",
      }),
    ]),
  },
};

/** A reply in the dark theme. */
export const Dark: Story = { ...Reasoning, globals: { theme: "dark" } };
