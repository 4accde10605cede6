import type { Meta, StoryObj } from "@storybook/react-vite";
import { expect, userEvent, waitFor, within } from "storybook/test";
import { phoneViewport } from "@/components/ui/chat.fixture";
import { AgentChat } from "./agent-chat";
import { CONTINUATION, cuttableFetch, standInServer } from "./agent-chat.fixture";

const meta = {
  title: "Blocks/AgentChat",
  component: AgentChat,
  decorators: [
    (Story) => (
      <div className="h-[40rem]">
        <Story />
      </div>
    ),
  ],
  parameters: { layout: "fullscreen" },
} satisfies Meta<typeof AgentChat>;

export default meta;
type Story = StoryObj<typeof meta>;

/**
 * The block against a stand-in of the reference server's wire: a message, the agent's intake
 * inline and in the inbox, confirmed with the pre-picked answers, and the run's continuation in
 * the same message; the inbox empties and the conversation is listed.
 */
export const AsksThenContinues: Story = {
  // A fresh stand-in per render, so a rerun never sees another's conversation.
  render: (args) => <AgentChat {...args} fetch={standInServer()} />,
  args: { agent: "refactorer", title: "Refactorer", className: "h-full" },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    const box = await canvas.findByRole("textbox", { name: "Message" });
    await userEvent.type(box, "Refactor the date helpers in utils.ts{Enter}");

    const form = await canvas.findByRole("form", {}, { timeout: 5_000 });
    await expect(await within(form).findByText("Question 1 of 2")).toBeVisible();
    // The inbox counts it, never zero while it waits (in the header, and in the inbox's heading).
    await waitFor(() => expect(canvas.getAllByText("1 call waits for you").length).toBeGreaterThan(0));

    await userEvent.click(within(form).getByRole("button", { name: "Next" }));
    await userEvent.click(await within(form).findByRole("button", { name: "Confirm" }));

    // The run goes on in the same message (read in the transcript: the reply announcer holds a
    // copy of it for a moment), and the inbox empties.
    const replies = await canvas.findAllByText(CONTINUATION, {}, { timeout: 5_000 });
    await expect(replies.find((reply) => reply.closest('[data-slot="chat-message"]'))).toBeVisible();
    await expect(canvasElement.querySelector('[data-slot="elicitation-settled"]')).not.toBeNull();
    await waitFor(() => expect(canvas.queryAllByText("1 call waits for you")).toHaveLength(0));
    await expect(canvas.getAllByText("Nothing waits for you").length).toBeGreaterThan(0);

    // The conversation is listed (below md, in the dialog the header's button opens).
    const opener = canvas.queryByRole("button", { name: "Conversations" });
    if (opener) await userEvent.click(opener);
    const list = canvas.getByRole("navigation", { name: "Conversations" });
    await expect(
      await within(list).findByRole("button", { name: /Refactor the date helpers/ }),
    ).toBeVisible();
    if (opener) await userEvent.click(canvas.getByRole("button", { name: "Close" }));
  },
};

/** The stand-in's connection, made per render so the play function can cut it. */
let network = cuttableFetch(standInServer());

/**
 * The server goes out of reach while a question waits, before the person acts: the block says so
 * (a polite status, read without moving the focus), and says when it is back; then the answer
 * goes through as usual.
 */
export const SaysWhenTheServerIsGone: Story = {
  render: (args) => {
    network = cuttableFetch(standInServer());
    return <AgentChat {...args} fetch={network.fetch} />;
  },
  args: { agent: "refactorer", title: "Refactorer", className: "h-full" },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    const status = () => canvasElement.querySelector('[data-slot="agent-chat-connection"]') as HTMLElement;
    const box = await canvas.findByRole("textbox", { name: "Message" });
    await userEvent.type(box, "Refactor the date helpers in utils.ts{Enter}");
    const form = await canvas.findByRole("form", {}, { timeout: 5_000 });
    // The inbox feed is live: the call it brought is counted. Nothing is said about the connection.
    await waitFor(() => expect(canvas.getAllByText("1 call waits for you").length).toBeGreaterThan(0));
    await expect(status()).toHaveAttribute("role", "status");
    await expect(status()).toHaveTextContent(/^$/);

    const focused = document.activeElement;
    network.cut();
    await waitFor(() => expect(status()).toHaveTextContent("The server cannot be reached. Reconnecting…"));
    await expect(status()).toBeVisible();
    await expect(status()).toHaveAttribute("data-state", "offline");
    // Said, not focused: the person stays where they were.
    await expect(document.activeElement).toBe(focused);

    network.restore();
    await waitFor(() => expect(status()).toHaveTextContent("Connected again."), { timeout: 8_000 });
    await expect(status()).toHaveAttribute("data-state", "back");

    await userEvent.click(within(form).getByRole("button", { name: "Next" }));
    await userEvent.click(await within(form).findByRole("button", { name: "Confirm" }));
    const replies = await canvas.findAllByText(CONTINUATION, {}, { timeout: 5_000 });
    await expect(replies.length).toBeGreaterThan(0);
  },
};

/** The same on a 390×844 phone: the line is in view above the message box, whole, nothing covering it. */
export const SaysWhenTheServerIsGoneOnAPhone: Story = {
  ...SaysWhenTheServerIsGone,
  ...phoneViewport,
  play: async ({ canvasElement }) => {
    await expect(window.innerWidth).toBe(390);
    const canvas = within(canvasElement);
    const status = () => canvasElement.querySelector('[data-slot="agent-chat-connection"]') as HTMLElement;
    const box = await canvas.findByRole("textbox", { name: "Message" });
    await userEvent.type(box, "Refactor the date helpers in utils.ts{Enter}");
    await canvas.findByRole("form", {}, { timeout: 5_000 });
    await waitFor(() => expect(canvas.getAllByText("1 call waits for you").length).toBeGreaterThan(0));
    network.cut();
    await waitFor(() => expect(status()).toHaveTextContent("The server cannot be reached. Reconnecting…"));
    const rect = status().getBoundingClientRect();
    await expect(rect.left).toBeGreaterThanOrEqual(0);
    await expect(rect.right).toBeLessThanOrEqual(window.innerWidth);
    await expect(rect.bottom).toBeLessThanOrEqual(window.innerHeight);
    await expect(rect.top).toBeGreaterThanOrEqual(0);
    await expect(document.elementFromPoint(rect.left + rect.width / 2, rect.top + rect.height / 2)).toBe(
      status(),
    );
    network.restore();
    await waitFor(() => expect(status()).toHaveTextContent("Connected again."), { timeout: 8_000 });
  },
};
