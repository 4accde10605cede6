import type { Meta, StoryObj } from "@storybook/react-vite";
import { useState } from "react";
import { expect, userEvent, waitFor, within } from "storybook/test";
import { Button } from "@/components/ui/button";
import type { TranscriptMessage } from "@/hooks/transcript-types";
import {
  approvalBlock,
  conversation,
  reasoningBlock,
  refactorerElicitation,
  textBlock,
  transcriptMessage,
  userMessage,
} from "./chat.fixture";
import { ChatTranscript } from "./chat-transcript";

const meta = {
  title: "Chat/ChatTranscript",
  component: ChatTranscript,
  decorators: [
    (Story) => (
      <div className="flex h-[32rem] flex-col rounded-xl border">
        <Story />
      </div>
    ),
  ],
} satisfies Meta<typeof ChatTranscript>;

export default meta;
type Story = StoryObj<typeof meta>;

/** No messages yet. */
export const Empty: Story = {
  args: { messages: [] },
  play: async ({ canvasElement }) => {
    const log = within(canvasElement).getByRole("log", { name: "Conversation" });
    await expect(log).toHaveAttribute("aria-live", "polite");
    await expect(log).toHaveTextContent("No messages yet");
  },
};

/** A finished conversation: the intake settled, reasoning, a tool call and the reply. */
export const Conversation: Story = { args: { messages: conversation() } };

/** The agent asks before it starts: the questions wait inline, pre-picked. */
export const Asking: Story = {
  args: {
    messages: [
      userMessage("m1", "Refactor src/core/answers.ts."),
      transcriptMessage("m2", "assistant", [refactorerElicitation("m2")]),
    ],
  },
};

/** A reply streaming in, after reasoning. */
export const Streaming: Story = {
  args: {
    messages: [
      userMessage("m1", "What does resolveAnswers do?"),
      transcriptMessage("m2", "assistant", [
        reasoningBlock("m2", "Read the function first."),
        textBlock("m2", "It fills every question the person left untouched with its own", true, 1),
      ]),
    ],
  },
};

/** A tool call waiting for approval at the end of the conversation. */
export const AwaitingApproval: Story = {
  args: {
    messages: [
      ...conversation(),
      transcriptMessage("m4", "assistant", [
        textBlock("m4", "Clearing the cache needs your go-ahead."),
        approvalBlock("m4", { toolName: "purge_cache", input: { scope: "build" } }),
      ]),
    ],
  },
};

let counter = 0;

/** Appends assistant messages on demand, to show how the log follows and when it stops. */
function GrowingTranscript() {
  const [messages, setMessages] = useState<TranscriptMessage[]>(() => conversation());
  const add = () => {
    counter += 1;
    const id = `added-${counter}`;
    setMessages((current) => [
      ...current,
      transcriptMessage(id, "assistant", [
        textBlock(id, `Update ${counter}: another step done.\n`.repeat(3)),
      ]),
    ]);
  };
  return (
    <>
      <ChatTranscript messages={messages} />
      <div className="border-t p-2">
        <Button type="button" size="sm" variant="outline" onClick={add}>
          Add a message
        </Button>
      </div>
    </>
  );
}

function distanceFromBottom(element: HTMLElement): number {
  return element.scrollHeight - element.scrollTop - element.clientHeight;
}

/** Follows new messages; scrolling up to read stops it, "Jump to latest" resumes it. */
export const FollowsUntilScrolledUp: Story = {
  args: { messages: [] },
  render: () => <GrowingTranscript />,
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    const log = canvas.getByRole("log");
    await waitFor(() => expect(distanceFromBottom(log)).toBeLessThanOrEqual(1));
    await userEvent.click(canvas.getByRole("button", { name: "Add a message" }));
    await waitFor(() => expect(distanceFromBottom(log)).toBeLessThanOrEqual(1));
    await expect(log.scrollTop).toBeGreaterThan(0);

    log.scrollTop = 0;
    const jump = await canvas.findByRole("button", { name: "Jump to latest" });
    await userEvent.click(canvas.getByRole("button", { name: "Add a message" }));
    await expect(log.scrollTop).toBe(0);

    await userEvent.click(jump);
    await waitFor(() => expect(distanceFromBottom(log)).toBeLessThanOrEqual(1));
    await expect(canvas.queryByRole("button", { name: "Jump to latest" })).toBeNull();
  },
};

/** The conversation in the dark theme. */
export const Dark: Story = { args: { messages: conversation() }, globals: { theme: "dark" } };
