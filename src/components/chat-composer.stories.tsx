import type { Meta, StoryObj } from "@storybook/react-vite";
import { expect, fn, userEvent, within } from "storybook/test";
import { ChatComposer } from "./chat-composer";
import { expectDarkTheme } from "./theme.fixture";

const meta = {
  title: "Chat/ChatComposer",
  component: ChatComposer,
  args: { onSend: fn(), onStop: fn() },
  decorators: [
    (Story) => (
      <div className="mx-auto max-w-2xl">
        <Story />
      </div>
    ),
  ],
} satisfies Meta<typeof ChatComposer>;

export default meta;
type Story = StoryObj<typeof meta>;

/** Ready for a message; Send stays off until there is text. */
export const Idle: Story = {
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await expect(canvas.getByRole("button", { name: "Send" })).toBeDisabled();
  },
};

/** A reply is streaming: the box still takes text, Stop ends the reply. */
export const Streaming: Story = {
  args: { streaming: true },
  play: async ({ args, canvasElement }) => {
    const canvas = within(canvasElement);
    await userEvent.click(canvas.getByRole("button", { name: "Stop" }));
    await expect(args.onStop).toHaveBeenCalledOnce();
  },
};

/** Turned off, e.g. while the agent waits for answers to its questions. */
export const Disabled: Story = {
  args: { disabled: true, placeholder: "Answer the questions above first" },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await expect(canvas.getByRole("textbox", { name: "Message" })).toBeDisabled();
  },
};

/** Enter sends the trimmed text and empties the box; Shift+Enter starts a new line. */
export const EnterSends: Story = {
  play: async ({ args, canvasElement }) => {
    const canvas = within(canvasElement);
    const box = canvas.getByRole("textbox", { name: "Message" });
    await userEvent.click(box);
    await userEvent.keyboard("First line{Shift>}{Enter}{/Shift}second line");
    await expect(box).toHaveValue("First line\nsecond line");
    await expect(args.onSend).not.toHaveBeenCalled();
    await userEvent.keyboard("{Enter}");
    await expect(args.onSend).toHaveBeenCalledOnce();
    await expect(args.onSend).toHaveBeenCalledWith("First line\nsecond line");
    await expect(box).toHaveValue("");
  },
};

/** While streaming, Enter does not send: the text waits in the box. */
export const EnterWaitsWhileStreaming: Story = {
  args: { streaming: true },
  play: async ({ args, canvasElement }) => {
    const canvas = within(canvasElement);
    const box = canvas.getByRole("textbox", { name: "Message" });
    await userEvent.type(box, "Next question{Enter}");
    await expect(args.onSend).not.toHaveBeenCalled();
    await expect(box).toHaveValue("Next question");
  },
};

/** The composer in the dark theme: light text on a dark field, and typing turns Send on. */
export const Dark: Story = {
  globals: { theme: "dark" },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    const box = canvas.getByRole("textbox", { name: "Message" });
    await expectDarkTheme(box);
    await userEvent.type(box, "Refactor the parser");
    await expect(canvas.getByRole("button", { name: "Send" })).toBeEnabled();
  },
};
