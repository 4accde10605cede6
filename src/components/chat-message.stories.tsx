import type { Meta, StoryObj } from "@storybook/react-vite";
import { expect, fn, spyOn, userEvent, waitFor, within } from "storybook/test";
import {
  phoneViewport,
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

/** The person's message: a bubble on the right, as typed, with nothing to copy. */
export const User: Story = {
  args: { message: userMessage("m1", "Refactor src/core/answers.ts so it reads top to bottom.") },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    const message = canvas.getByRole("article", { name: "You" });
    await expect(message).toHaveAttribute("data-role", "user");
    const text = within(message).getByText("Refactor src/core/answers.ts so it reads top to bottom.");
    await expect(text).toBeVisible();
    // The bubble sits at the end of the line, its text well away from the start.
    const line = message.getBoundingClientRect();
    const bubble = text.getBoundingClientRect();
    await expect(line.right - bubble.right).toBeLessThan(line.width / 4);
    await expect(bubble.left - line.left).toBeGreaterThan(line.width / 4);
    await expect(canvas.queryByRole("button", { name: "Copy" })).toBeNull();
  },
};

/** The assistant's reply, its Markdown rendered (the code span as code), with Copy below. */
export const Assistant: Story = {
  args: {
    message: transcriptMessage("m2", "assistant", [
      textBlock("m2", "Done. I split `resolveAnswers` into three steps.\nThe unit tests pass."),
    ]),
  },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    const message = canvas.getByRole("article", { name: "Assistant" });
    await expect(message).toHaveAttribute("data-role", "assistant");
    // The renderer loads on its own; until then the text shows plain, its backticks as typed.
    const code = await waitFor(() => {
      const found = message.querySelector("code");
      if (!found) throw new Error("the code span has not rendered");
      return found;
    });
    await expect(code).toHaveTextContent("resolveAnswers");
    await expect(message).not.toHaveTextContent("`");
    await expect(canvas.getByRole("button", { name: "Copy" })).toBeVisible();
  },
};

/** A person's paste of 5,000 characters: a paragraph of a log, many times over. */
const longText = Array.from(
  { length: 50 },
  (_, line) => `Line ${line + 1}: the build failed at step ${line} because the cache key moved again.`,
)
  .join("\n")
  .padEnd(5_000, " and then it did it once more");

/**
 * A long message of the person's folds under "Show more"; the button says whether it is open and
 * which text it controls, shows the whole message, and "Show less" folds it again.
 */
export const LongUserMessage: Story = {
  args: { message: userMessage("m1", longText) },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await expect(window.innerWidth).toBeGreaterThan(390);
    const folded = canvasElement.querySelector("[data-slot=chat-message-collapsible]") as HTMLElement;
    const more = canvas.getByRole("button", { name: "Show more" });
    await expect(more).toHaveAttribute("aria-expanded", "false");
    await expect(more).toHaveAttribute("aria-controls", folded.id);
    await expect(folded.getBoundingClientRect().height).toBeLessThanOrEqual(241);
    // Folding hides nothing from find-in-page or a screen reader: the whole text is there.
    await expect(folded.textContent).toHaveLength(longText.length);
    await userEvent.click(more);
    const less = canvas.getByRole("button", { name: "Show less" });
    await expect(less).toHaveAttribute("aria-expanded", "true");
    await expect(folded.getBoundingClientRect().height).toBeGreaterThan(600);
    await userEvent.click(less);
    await expect(folded.getBoundingClientRect().height).toBeLessThanOrEqual(241);
  },
};

/** The same on a phone: the folded bubble and its button fit the width, nothing scrolls sideways. */
export const LongUserMessagePhone: Story = {
  ...phoneViewport,
  args: { message: userMessage("m1", longText) },
  play: async ({ canvasElement }) => {
    await expect(window.innerWidth).toBe(390);
    const canvas = within(canvasElement);
    const more = canvas.getByRole("button", { name: "Show more" });
    const box = more.getBoundingClientRect();
    await expect(box.right).toBeLessThanOrEqual(390);
    await expect(box.height).toBeGreaterThanOrEqual(24);
    await expect(document.documentElement.scrollWidth).toBeLessThanOrEqual(390);
    await userEvent.click(more);
    await expect(canvas.getByRole("button", { name: "Show less" })).toBeVisible();
  },
};

/** A message under the fold's length stays as it is, with no button. */
export const ShortUserMessage: Story = {
  args: { message: userMessage("m1", "Refactor the parser.") },
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).queryByRole("button", { name: "Show more" })).toBeNull();
  },
};

const reply = "Done. I split `resolveAnswers` into three steps.\n\n- read\n- settle\n- summarise";

/** Copy puts the agent's text, Markdown as written, on the clipboard, and says so. */
export const CopyReply: Story = {
  args: { message: transcriptMessage("m2", "assistant", [textBlock("m2", reply)]) },
  beforeEach: () => {
    const writeText = fn(async (_text: string) => {});
    const original = Object.getOwnPropertyDescriptor(navigator, "clipboard");
    Object.defineProperty(navigator, "clipboard", { configurable: true, value: { writeText } });
    return () => {
      if (original) Object.defineProperty(navigator, "clipboard", original);
      else Reflect.deleteProperty(navigator, "clipboard");
    };
  },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await userEvent.click(canvas.getByRole("button", { name: "Copy" }));
    await expect(navigator.clipboard.writeText).toHaveBeenCalledWith(reply);
    await expect(await canvas.findByRole("button", { name: "Copied" })).toHaveAttribute(
      "data-state",
      "copied",
    );
    await expect(canvas.getByRole("status")).toHaveTextContent("Copied");
    // A moment later it reads Copy again, ready for another.
    await waitFor(() => expect(canvas.getByRole("button", { name: "Copy" })).toBeVisible(), {
      timeout: 4000,
    });
  },
};

/** The same on a phone, where the button keeps a finger-sized target in the width. */
export const CopyReplyPhone: Story = {
  ...phoneViewport,
  args: CopyReply.args,
  beforeEach: CopyReply.beforeEach,
  play: async ({ canvasElement }) => {
    await expect(window.innerWidth).toBe(390);
    const copy = within(canvasElement).getByRole("button", { name: "Copy" });
    const box = copy.getBoundingClientRect();
    await expect(box.left).toBeGreaterThanOrEqual(0);
    await expect(box.height).toBeGreaterThanOrEqual(24);
    await userEvent.click(copy);
    await expect(navigator.clipboard.writeText).toHaveBeenCalledWith(reply);
  },
};

/** When the browser will not copy (no clipboard, no fallback), the status says what to do instead. */
export const CopyRefused: Story = {
  args: CopyReply.args,
  beforeEach: () => {
    const original = Object.getOwnPropertyDescriptor(navigator, "clipboard");
    Object.defineProperty(navigator, "clipboard", {
      configurable: true,
      value: { writeText: async () => Promise.reject(new Error("denied")) },
    });
    const execCommand = spyOn(document, "execCommand").mockReturnValue(false);
    return () => {
      execCommand.mockRestore();
      if (original) Object.defineProperty(navigator, "clipboard", original);
      else Reflect.deleteProperty(navigator, "clipboard");
    };
  },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await userEvent.click(canvas.getByRole("button", { name: "Copy" }));
    await expect(await canvas.findByRole("status")).toHaveTextContent(
      "Could not copy. Select the text to copy it.",
    );
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
    // Nothing to copy until the text is whole.
    await expect(within(canvasElement).queryByRole("button", { name: "Copy" })).toBeNull();
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
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    const form = canvas.getByRole("form");
    await expect(within(form).getByText("How much should I cover?", { exact: true })).toBeVisible();
    await expect(within(form).getByRole("radio", { name: "The whole module" })).toBeChecked();
    // The questions come first in the message, the tool call after them.
    const call = canvas.getByText("read_file");
    await expect(call).toBeVisible();
    await expect(form.compareDocumentPosition(call) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
  },
};

/** A reply in the dark theme. */
export const Dark: Story = { ...Reasoning, globals: { theme: "dark" } };
