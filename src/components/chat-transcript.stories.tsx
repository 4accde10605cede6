import type { Meta, StoryObj } from "@storybook/react-vite";
import { useState } from "react";
import { expect, userEvent, waitFor, within } from "storybook/test";
import { Button } from "@/components/ui/button";
import type { TranscriptMessage } from "@/hooks/transcript-types";
import {
  approvalBlock,
  conversation,
  phoneViewport,
  reasoningBlock,
  refactorerElicitation,
  textBlock,
  transcriptMessage,
  userMessage,
} from "./chat.fixture";
import { ChatApproval } from "./chat-approval";
import type { ChatBlockRenderer } from "./chat-message";
import { ChatTranscript } from "./chat-transcript";
import { expectDarkTheme } from "./theme.fixture";

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
    const region = within(canvasElement).getByRole("region", { name: "Conversation" });
    const log = within(region).getByRole("log");
    await expect(log).toHaveAttribute("aria-relevant", "additions");
    await expect(log).toHaveTextContent("No messages yet");
  },
};

/** The conversation's scrolling viewport in a story. */
function viewportOf(canvasElement: HTMLElement): HTMLElement {
  const viewport = canvasElement.querySelector<HTMLElement>("[data-slot=message-scroller-viewport]");
  if (!viewport) throw new Error("no message-scroller viewport");
  return viewport;
}

/**
 * A finished conversation: the intake settled, reasoning, a tool call and the reply, in order,
 * opened at its end with the latest message in view.
 */
export const Conversation: Story = {
  args: { messages: conversation() },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    const articles = canvas.getAllByRole("article");
    await expect(articles.map((article) => article.getAttribute("data-role"))).toEqual([
      "user",
      "assistant",
      "user",
    ]);
    const assistant = within(articles[1] as HTMLElement);
    await expect(assistant.getByText("Answered")).toBeVisible();
    await expect(assistant.getByText("read_file")).toBeVisible();
    await expect(await assistant.findByText(/kept the exported names/)).toBeVisible();
    const latest = canvas.getByText("Thanks. Can you also clear the build cache?");
    await waitFor(() => expect(inView(latest, viewportOf(canvasElement))).toBe(true));
  },
};

/** The agent asks before it starts: the questions wait inline, pre-picked, in view. */
export const Asking: Story = {
  args: {
    messages: [
      userMessage("m1", "Refactor src/core/answers.ts."),
      transcriptMessage("m2", "assistant", [refactorerElicitation("m2")]),
    ],
  },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    const form = canvas.getByRole("form");
    await expect(within(form).getByRole("radio", { name: "The whole module" })).toBeChecked();
    const prompt = within(form).getByText("How much should I cover?", { exact: true });
    await waitFor(() => expect(inView(prompt, viewportOf(canvasElement))).toBe(true));
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
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    const reply = canvas.getByRole("article", { name: "Assistant" });
    await expect(reply).toHaveAttribute("data-streaming");
    await expect(reply.querySelector("[data-slot=chat-message-caret]")).not.toBeNull();
    await expect(within(reply).getByText(/with its own/)).toBeVisible();
    // The reasoning stays folded, and a reply still coming has nothing to copy yet.
    await expect(within(reply).getByText("Read the function first.")).not.toBeVisible();
    await expect(within(reply).queryByRole("button", { name: "Copy" })).toBeNull();
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
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    const card = canvas.getByRole("region", { name: "Allow purge_cache to run?" });
    await expect(within(card).getByRole("button", { name: "Approve" })).toBeEnabled();
    // It is the last thing in the conversation, and the conversation opens on it.
    const approve = within(card).getByRole("button", { name: "Approve" });
    await waitFor(() => expect(inView(approve, viewportOf(canvasElement))).toBe(true));
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

/** The person scrolls up to read, as the wheel says it (a scroll event alone is no intent). */
function scrollUp(viewport: HTMLElement) {
  viewport.dispatchEvent(new WheelEvent("wheel", { deltaY: -400, bubbles: true }));
  viewport.scrollTop = 0;
}

/** Follows new messages; scrolling up to read stops it, "Jump to latest" resumes it. */
export const FollowsUntilScrolledUp: Story = {
  args: { messages: [] },
  render: () => <GrowingTranscript />,
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    const viewport = canvas.getByRole("region", { name: "Conversation" });
    const jump = canvas.getByRole("button", { name: "Jump to latest" });
    await waitFor(() => expect(distanceFromBottom(viewport)).toBeLessThanOrEqual(1));
    // At the end there is nothing to jump to: the button is inert and out of the tab order.
    await expect(jump).toHaveAttribute("data-active", "false");
    await userEvent.click(canvas.getByRole("button", { name: "Add a message" }));
    await waitFor(() => expect(distanceFromBottom(viewport)).toBeLessThanOrEqual(1));
    await expect(viewport.scrollTop).toBeGreaterThan(0);

    scrollUp(viewport);
    await waitFor(() => expect(jump).toHaveAttribute("data-active", "true"));
    await userEvent.click(canvas.getByRole("button", { name: "Add a message" }));
    await expect(viewport.scrollTop).toBe(0);

    await userEvent.click(jump);
    await waitFor(() => expect(distanceFromBottom(viewport)).toBeLessThanOrEqual(1));
    await waitFor(() => expect(jump).toHaveAttribute("data-active", "false"));
    // Following again: the next message is followed.
    await userEvent.click(canvas.getByRole("button", { name: "Add a message" }));
    await waitFor(() => expect(distanceFromBottom(viewport)).toBeLessThanOrEqual(1));
  },
};

/** A long thread whose older turns load in two pages, a few at a time. */
function PagedTranscript() {
  const turns = (from: number) =>
    Array.from({ length: 10 }, (_, index) => {
      const n = from + index;
      return n % 2 === 0
        ? userMessage(`m${n}`, `Question number ${n}: what changed in answers.ts?`)
        : transcriptMessage(`m${n}`, "assistant", [
            textBlock(`m${n}`, `Reply number ${n}: the rules read the core.`),
          ]);
    });
  const [messages, setMessages] = useState(() => turns(20));
  const [pages, setPages] = useState(2);
  const [loading, setLoading] = useState(false);
  const loadOlder = async () => {
    setLoading(true);
    await new Promise((resolve) => setTimeout(resolve, 50));
    setMessages((shown) => [...turns(pages === 2 ? 10 : 0), ...shown]);
    setPages((left) => left - 1);
    setLoading(false);
  };
  return (
    <ChatTranscript messages={messages} hasOlder={pages > 0} loadingOlder={loading} onLoadOlder={loadOlder} />
  );
}

/**
 * "Show earlier messages" above the first message, by keyboard: the older turns come in above
 * and the reader stays on the message they were reading; once none remain the focus goes to the log.
 */
export const ShowEarlierMessages: Story = {
  args: { messages: [] },
  render: () => <PagedTranscript />,
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    const log = canvas.getByRole("region", { name: "Conversation" });
    scrollUp(log);
    const button = await canvas.findByRole("button", { name: "Show earlier messages" });
    const reading = canvas.getByText(/Question number 20:/);
    const offset = () => reading.getBoundingClientRect().top - log.getBoundingClientRect().top;
    const before = offset();
    button.focus();
    await userEvent.keyboard("{Enter}");
    await canvas.findByText(/Question number 10:/);
    await waitFor(() => expect(Math.abs(offset() - before)).toBeLessThanOrEqual(1));
    await expect(canvas.getByRole("button", { name: "Show earlier messages" })).toHaveFocus();

    await userEvent.keyboard("{Enter}");
    await canvas.findByText(/Question number 0:/);
    await waitFor(() => expect(canvas.queryByRole("button", { name: /earlier messages/ })).toBeNull());
    await expect(log).toHaveFocus();
  },
};

/** Approvals take the focus as they appear, as the agent-chat block renders them. */
const focusingApprovals: ChatBlockRenderer = (block) =>
  block.type === "approval" ? <ChatApproval block={block} autoFocus /> : undefined;

/** Whether `element` lies wholly inside `viewport`'s box. */
function inView(element: Element, viewport: Element): boolean {
  const box = element.getBoundingClientRect();
  const frame = viewport.getBoundingClientRect();
  return box.top >= frame.top - 1 && box.bottom <= frame.bottom + 1 && box.height > 0;
}

/**
 * A run that asks approval for a purge: approving it continues the run (its reply streams in),
 * and "Send a message" sends the person's next message, which the agent answers.
 */
function ApprovalThenSend() {
  const [messages, setMessages] = useState<TranscriptMessage[]>(() => {
    const approval = approvalBlock("m4", {
      toolName: "purge_cache",
      input: { cache: "images" },
      send: async () => {
        setMessages((shown) => [
          ...shown,
          transcriptMessage("m5", "assistant", [
            textBlock("m5", 'purge_cache returned {"purged":"images"}.\n'.repeat(6)),
          ]),
        ]);
      },
    });
    return [
      ...conversation(),
      transcriptMessage("m4", "assistant", [textBlock("m4", "Purging needs your go-ahead."), approval]),
    ];
  });
  const send = () =>
    setMessages((shown) => [
      ...shown,
      userMessage("m6", "Now check that the api is healthy."),
      transcriptMessage("m7", "assistant", [textBlock("m7", 'read_status returned {"healthy":true}.')]),
    ]);
  return (
    <>
      <ChatTranscript messages={messages} renderBlock={focusingApprovals} />
      <div className="border-t p-2">
        <Button type="button" size="sm" variant="outline" onClick={send}>
          Send a message
        </Button>
      </div>
    </>
  );
}

/**
 * After an approval the next message and its reply land in view: the decided card takes the
 * focus without scrolling, so the conversation goes on following, and a sent message starts its
 * turn in view whatever the reader did before.
 */
async function playApprovalThenSend(canvasElement: HTMLElement) {
  const canvas = within(canvasElement);
  const viewport = canvas.getByRole("region", { name: "Conversation" });
  const approve = await canvas.findByRole("button", { name: "Approve" });
  await waitFor(() => expect(inView(approve, viewport)).toBe(true));
  approve.focus({ preventScroll: true });
  await userEvent.keyboard("{Enter}");
  const decided = await canvas.findByRole("region", { name: /purge_cache approved/ });
  await waitFor(() => expect(decided).toHaveFocus());
  // The transcript's own reply (a screen reader's copy of it is said outside the conversation).
  const conversation = within(viewport);
  await conversation.findByText(/purge_cache returned/);
  // Following survived the focus move: the reply is in view.
  await waitFor(() => expect(distanceFromBottom(viewport)).toBeLessThanOrEqual(1));

  await userEvent.click(canvas.getByRole("button", { name: "Send a message" }));
  const sent = (await conversation.findByText("Now check that the api is healthy.")).closest(
    "[data-slot=bubble]",
  );
  const reply = await conversation.findByText(/read_status returned/);
  await waitFor(() => expect(inView(sent as Element, viewport)).toBe(true));
  await waitFor(() => expect(inView(reply, viewport)).toBe(true));
}

export const SendAfterApproval: Story = {
  args: { messages: [] },
  render: () => <ApprovalThenSend />,
  play: ({ canvasElement }) => playApprovalThenSend(canvasElement),
};

/** The same on a phone, where the conversation before the new turn is taller than the screen. */
export const SendAfterApprovalPhone: Story = {
  ...phoneViewport,
  args: { messages: [] },
  render: () => <ApprovalThenSend />,
  play: async ({ canvasElement }) => {
    await expect(window.innerWidth).toBe(390);
    await playApprovalThenSend(canvasElement);
  },
};

/** A reader who scrolled up to read still sees the message they send, and its reply under it. */
export const SendAfterReadingUp: Story = {
  args: { messages: [] },
  render: () => <ApprovalThenSend />,
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    const viewport = canvas.getByRole("region", { name: "Conversation" });
    await waitFor(() => expect(distanceFromBottom(viewport)).toBeLessThanOrEqual(1));
    scrollUp(viewport);
    await waitFor(() =>
      expect(canvas.getByRole("button", { name: "Jump to latest" })).toHaveAttribute("data-active", "true"),
    );
    await userEvent.click(canvas.getByRole("button", { name: "Send a message" }));
    const sent = (await canvas.findByText("Now check that the api is healthy.")).closest(
      "[data-slot=bubble]",
    );
    await waitFor(() => expect(inView(sent as Element, viewport)).toBe(true));
    const reply = () => within(viewport).getByText(/read_status returned/);
    await waitFor(() => expect(inView(reply(), viewport)).toBe(true));
  },
};

/** The conversation in the dark theme. */
export const Dark: Story = {
  ...Conversation,
  globals: { theme: "dark" },
  play: async (context) => {
    await Conversation.play?.(context);
    const reply = within(context.canvasElement).getAllByRole("article")[1] as HTMLElement;
    await expectDarkTheme(within(reply).getByText(/kept the exported names/));
  },
};
