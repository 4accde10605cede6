import type { Meta, StoryObj } from "@storybook/react-vite";
import { expect, userEvent, within } from "storybook/test";
import type { CreateElicitationOptions } from "@/hooks/create-elicitation";
import { useElicitation } from "@/hooks/use-elicitation";
import { settleAnswers, settleSkipped } from "@/lib/prepick/core/outcome";
import type { ElicitationRequest } from "@/lib/prepick/core/question";
import { ChatElicitation } from "./chat-elicitation";
import { refactorerRequest } from "./elicitation.fixture";

/** A fresh block per mount, so a play function never sees another story's answers. */
function ElicitationStory({ options }: { options: CreateElicitationOptions }) {
  const { block } = useElicitation(options);
  return <ChatElicitation block={block} />;
}

const meta = {
  title: "Chat/ChatElicitation/Layout",
  component: ElicitationStory,
  decorators: [
    (Story) => (
      <div className="mx-auto max-w-2xl">
        <Story />
      </div>
    ),
  ],
  parameters: {
    viewport: {
      options: {
        phone: { name: "Phone 390×844", styles: { width: "390px", height: "844px" }, type: "mobile" },
        narrow: { name: "Narrow phone 320×640", styles: { width: "320px", height: "640px" }, type: "mobile" },
      },
    },
  },
} satisfies Meta<typeof ElicitationStory>;

export default meta;
type Story = StoryObj<typeof meta>;

function settlesLocally(request: ElicitationRequest, id: string): CreateElicitationOptions {
  return {
    id,
    request,
    onAnswer: async (answers) => settleAnswers(request.questions, answers),
    onSkip: async () => settleSkipped(request.questions),
  };
}

/** The question set's card, which nothing of the form may overflow. */
function cardOf(canvasElement: HTMLElement): HTMLElement {
  const card = canvasElement.querySelector<HTMLElement>("[data-slot=chat-elicitation]");
  if (!card) throw new Error("no question card");
  return card;
}

/** Fails naming the overflow unless neither the card nor the page scrolls sideways. */
async function expectNoHorizontalOverflow(card: HTMLElement): Promise<void> {
  const page = document.scrollingElement ?? document.documentElement;
  await expect({ card: card.scrollWidth, page: page.scrollWidth }).toEqual({
    card: Math.min(card.scrollWidth, card.clientWidth),
    page: Math.min(page.scrollWidth, page.clientWidth),
  });
}

/** Fails naming the element unless it lies wholly inside the viewport and inside the card. */
async function expectFullyVisible(element: Element, card: HTMLElement, what: string): Promise<void> {
  const box = element.getBoundingClientRect();
  const frame = card.getBoundingClientRect();
  const inside = (outer: { left: number; right: number; top: number; bottom: number }) =>
    box.left >= outer.left - 0.5 &&
    box.right <= outer.right + 0.5 &&
    box.top >= outer.top - 0.5 &&
    box.bottom <= outer.bottom + 0.5;
  const viewport = { left: 0, top: 0, right: window.innerWidth, bottom: window.innerHeight };
  await expect({ what, inViewport: inside(viewport), inCard: inside(frame), width: box.width > 0 }).toEqual({
    what,
    inViewport: true,
    inCard: true,
    width: true,
  });
}

const LONG_WORD = "x".repeat(300);

/**
 * A 300-character unbroken word in a prompt, an option and a typed answer: each wraps inside the
 * card, and neither the card nor the page scrolls sideways.
 */
export const LongText: Story = {
  args: {
    options: settlesLocally(
      {
        source: "ask",
        questions: [
          {
            id: "target",
            prompt: `Which one? ${LONG_WORD}`,
            options: [
              { value: "short", label: "Short" },
              { value: "long", label: LONG_WORD, description: LONG_WORD },
            ],
            allowFreeText: true,
            defaults: ["short"],
          },
          { id: "name", prompt: "What should it be called?", input: { type: "text" } },
        ],
      },
      "story-long-text",
    ),
  },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    const card = cardOf(canvasElement);
    await expect(canvas.getByText(`Which one? ${LONG_WORD}`)).toBeVisible();
    await expectNoHorizontalOverflow(card);
    await expectFullyVisible(canvas.getByText(LONG_WORD, { selector: "label" }), card, "the long option");

    // Pasted, as 300 keystrokes would take longer than the test may.
    await userEvent.click(canvas.getByRole("textbox", { name: "Or write your own answer" }));
    await userEvent.paste(LONG_WORD);
    await expectNoHorizontalOverflow(card);
    await userEvent.keyboard("{Enter}");
    const name = await canvas.findByRole("textbox", { name: "What should it be called?" });
    await userEvent.click(name);
    await userEvent.paste(LONG_WORD);
    await expectNoHorizontalOverflow(card);
    await userEvent.keyboard("{Enter}");

    // The settled answers show the long word too, wrapped.
    await expect(await canvas.findByText("Answered")).toBeVisible();
    await expectNoHorizontalOverflow(cardOf(canvasElement));
  },
};

/**
 * The checks of a phone story: the window is the phone's width (the viewport the story sets), the
 * question, its options, the buttons and the hints lie wholly in view, and nothing scrolls sideways.
 */
async function playOnPhone(canvasElement: HTMLElement, width: number): Promise<void> {
  await expect(window.innerWidth).toBe(width);
  const canvas = within(canvasElement);
  const card = cardOf(canvasElement);
  await expectNoHorizontalOverflow(card);
  await expectFullyVisible(canvas.getByText("How much should I cover?"), card, "the prompt");
  for (const radio of canvas.getAllByRole("radio")) {
    const row = radio.closest("[data-slot=elicitation-option]");
    if (row) await expectFullyVisible(row, card, `the option ${radio.getAttribute("data-value")}`);
  }
  for (const button of canvas.getAllByRole("button")) {
    await expectFullyVisible(button, card, `the button ${button.textContent}`);
  }
  // The buttons stay large enough to tap (WCAG 2.5.8 asks 24 px).
  for (const button of canvas.getAllByRole("button")) {
    await expect(button.getBoundingClientRect().height).toBeGreaterThanOrEqual(24);
  }
  await userEvent.click(canvas.getByRole("button", { name: "Next" }));
  await expect(await canvas.findByText("Question 2 of 3")).toBeVisible();
  await expectNoHorizontalOverflow(card);
  for (const box of canvas.getAllByRole("checkbox")) {
    const row = box.closest("[data-slot=elicitation-option]");
    if (row) await expectFullyVisible(row, card, `the option ${box.getAttribute("data-value")}`);
  }
}

/** A 390×844 phone: the spec's intake fits, nothing cut off or scrolling sideways. */
export const Phone: Story = {
  args: { options: settlesLocally(refactorerRequest, "story-phone") },
  globals: { viewport: { value: "phone", isRotated: false } },
  play: async ({ canvasElement }) => playOnPhone(canvasElement, 390),
};

/** The narrowest phone the app supports, 320 px wide. */
export const NarrowPhone: Story = {
  args: { options: settlesLocally(refactorerRequest, "story-narrow-phone") },
  globals: { viewport: { value: "narrow", isRotated: false } },
  play: async ({ canvasElement }) => playOnPhone(canvasElement, 320),
};
