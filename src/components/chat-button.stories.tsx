import type { Meta, StoryObj } from "@storybook/react-vite";
import { expect, fn, userEvent, within } from "storybook/test";
import { ChatButton } from "./chat-button";

const meta = {
  title: "Chat/ChatButton",
  component: ChatButton,
  args: { children: "Approve", onClick: fn() },
} satisfies Meta<typeof ChatButton>;

export default meta;
type Story = StoryObj<typeof meta>;

/** The primary action; a plain button (`type="button"`) unless told otherwise. */
export const Default: Story = {
  play: async ({ args, canvasElement }) => {
    const button = within(canvasElement).getByRole("button", { name: "Approve" });
    await expect(button).toHaveAttribute("type", "button");
    await userEvent.click(button);
    await expect(args.onClick).toHaveBeenCalledTimes(1);
  },
};

/** A destructive action, such as Reject. */
export const Destructive: Story = { args: { variant: "destructive", children: "Reject" } };

/** A secondary action, such as Skip and use my picks. */
export const Outline: Story = { args: { variant: "outline", children: "Skip and use my picks" } };

/** A quiet action. */
export const Ghost: Story = { args: { variant: "ghost", children: "Back" } };

/** Off while an action is on its way: not clickable. */
export const Disabled: Story = {
  args: { disabled: true },
  play: async ({ args, canvasElement }) => {
    const button = within(canvasElement).getByRole("button", { name: "Approve" });
    await expect(button).toBeDisabled();
    await userEvent.click(button, { pointerEventsCheck: 0 });
    await expect(args.onClick).not.toHaveBeenCalled();
  },
};
