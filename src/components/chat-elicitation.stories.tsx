import type { Meta, StoryObj } from "@storybook/react-vite";
import { expect, fn, userEvent, waitFor, within } from "storybook/test";
import type { CreateElicitationOptions } from "@/hooks/create-elicitation";
import { useElicitation } from "@/hooks/use-elicitation";
import { validateAnswers } from "@/lib/prepick/core/answers";
import { settleAnswers, settleSkipped } from "@/lib/prepick/core/outcome";
import type { Answers, ElicitationOutcome, ElicitationRequest, Question } from "@/lib/prepick/core/question";
import { ToolCallError } from "@/lib/prepick/transport";
import { ChatElicitation } from "./chat-elicitation";
import {
  bookingRequest,
  freeTextQuestion,
  longListQuestion,
  refactorerRequest,
  typedQuestions,
} from "./elicitation.fixture";
import { ElicitationActions, ElicitationStatus } from "./elicitation-actions";
import type { ElicitationLayout } from "./elicitation-context";
import { ElicitationPreamble, ElicitationProgress } from "./elicitation-progress";
import {
  ElicitationControl,
  ElicitationDescription,
  ElicitationError,
  ElicitationLegend,
  ElicitationQuestion,
} from "./elicitation-question";
import { ElicitationRoot } from "./elicitation-root";

/** Renders a fresh block per mount, so a play function never sees another story's answers. */
function ElicitationStory({
  options,
  layout,
  autoFocus,
}: {
  options: CreateElicitationOptions;
  layout?: ElicitationLayout;
  autoFocus?: boolean;
}) {
  const { block } = useElicitation(options);
  return <ChatElicitation block={block} layout={layout} autoFocus={autoFocus} />;
}

const meta = {
  title: "Chat/ChatElicitation",
  component: ElicitationStory,
  decorators: [
    (Story) => (
      <div className="mx-auto max-w-2xl">
        <Story />
      </div>
    ),
  ],
} satisfies Meta<typeof ElicitationStory>;

export default meta;
type Story = StoryObj<typeof meta>;

function one(question: Question, preamble?: string): ElicitationRequest {
  return { source: "ask", questions: [question], ...(preamble !== undefined ? { preamble } : {}) };
}

const sentAnswers = fn(async (_answers: Answers): Promise<void> => {});
const sentSkips = fn(async (): Promise<void> => {});

/** Options whose answers and skips settle locally, recording what was sent. */
function local(
  request: ElicitationRequest,
  more: Partial<CreateElicitationOptions> = {},
): CreateElicitationOptions {
  return {
    id: `story-${request.questions.map((question) => question.id).join("-")}`,
    request,
    onAnswer: async (answers) => {
      await sentAnswers(answers);
      return settleAnswers(request.questions, answers);
    },
    onSkip: async () => {
      await sentSkips();
      return settleSkipped(request.questions);
    },
    ...more,
  };
}

const clearSpies = () => {
  sentAnswers.mockClear();
  sentSkips.mockClear();
};

/** The spec's form: a preamble, "Question 1 of 3", options with hotkeys and the agent's own pick. */
export const Pending: Story = {
  args: { options: local(refactorerRequest) },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await expect(canvas.getByRole("progressbar")).toHaveAttribute("aria-valuetext", "Question 1 of 3");
    await expect(canvas.getByRole("radio", { name: "The whole module" })).toBeChecked();
    await expect(canvas.getByText("⏎")).toBeVisible();
  },
};

/** The same set with every question on screen at once. */
export const AllAtOnce: Story = {
  args: { options: local(refactorerRequest), layout: "all-at-once" },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await expect(canvas.getByText("3 questions")).toBeVisible();
    await expect(canvas.getByRole("group", { name: "Which tests should I touch?" })).toBeVisible();
    await expect(canvas.getByRole("button", { name: "Confirm" })).toBeVisible();
    // Tab lands on a radio, not on its question's fieldset: the radio group it enters is named by the prompt.
    await userEvent.tab();
    const radio = canvas.getByRole("radio", { name: "The whole module" });
    await expect(radio).toHaveFocus();
    await expect(radio.closest("[role=radiogroup]")).toBe(
      canvas.getByRole("radiogroup", { name: "How much should I cover?" }),
    );
  },
};

/** One question at a time, moved through with Next and Back. */
export const OneAtATime: Story = {
  args: { options: local(refactorerRequest), layout: "one-at-a-time" },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await userEvent.click(canvas.getByRole("button", { name: "Next" }));
    await expect(canvas.getByRole("progressbar")).toHaveAttribute("aria-valuetext", "Question 2 of 3");
    // The new question takes the focus on its group, so a screen reader says its prompt first.
    await expect(canvas.getByRole("group", { name: "Which tests should I touch?" })).toHaveFocus();
    // There the radio group is unnamed: the focused fieldset already said the prompt.
    await userEvent.click(canvas.getByRole("button", { name: "Back" }));
    await expect(canvas.getByRole("radiogroup")).not.toHaveAttribute("aria-labelledby");
    await userEvent.click(canvas.getByRole("button", { name: "Next" }));
    await userEvent.click(canvas.getByRole("button", { name: "Back" }));
    await expect(canvas.getByRole("progressbar")).toHaveAttribute("aria-valuetext", "Question 1 of 3");
  },
};

/**
 * A text field with a pattern and a pre-filled default. The page fetches the pattern engine when
 * the question appears; a value the pattern refuses is held back with the rule it broke.
 */
export const TextInput: Story = {
  args: { options: local(one(typedQuestions.text as Question)) },
  beforeEach: clearSpies,
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    const title = canvas.getByRole("textbox", { name: "What should the branch be called?" });
    await userEvent.clear(title);
    await userEvent.type(title, "Fix Login{Enter}");
    await waitFor(() => expect(canvas.getByRole("alert")).toHaveTextContent(/^Enter it in the form/));
    await userEvent.clear(title);
    await userEvent.type(title, "fix-login{Enter}");
    await waitFor(() => expect(sentAnswers).toHaveBeenCalledWith({ title: ["fix-login"] }));
  },
};

/** A textarea: Enter writes a new line, Ctrl/⌘+Enter confirms. */
export const TextareaInput: Story = {
  args: { options: local(one(typedQuestions.textarea as Question)) },
  beforeEach: clearSpies,
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    const notes = canvas.getByRole("textbox", { name: "Anything else I should know?" });
    await userEvent.type(notes, "Keep the API.{Enter}Ask before renaming.");
    await expect(notes).toHaveValue("Keep the API.\nAsk before renaming.");
    await expect(sentAnswers).not.toHaveBeenCalled();
    await userEvent.keyboard("{Control>}{Enter}{/Control}");
    await waitFor(() =>
      expect(sentAnswers).toHaveBeenCalledWith({ notes: ["Keep the API.\nAsk before renaming."] }),
    );
  },
};

/** A bounded number; the field keeps what is typed (`1.` on the way to `1.5`), the answer is canonical. */
export const NumberInput: Story = {
  args: { options: local(one(typedQuestions.number as Question)) },
  beforeEach: clearSpies,
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    const seats = canvas.getByRole("spinbutton", { name: "How many seats?" });
    await userEvent.clear(seats);
    await userEvent.type(seats, "1.");
    await expect(seats).toHaveValue(1);
    await userEvent.type(seats, "5{Enter}");
    await expect(sentAnswers).toHaveBeenCalledWith({ seats: ["1.5"] });
  },
};

/** A boolean as a Yes/No pair, so "no answer" and "No" never look the same. */
export const BooleanInput: Story = {
  args: { options: local(one(typedQuestions.boolean as Question)), autoFocus: true },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await expect(canvas.getByRole("radio", { name: "Yes" })).toBeChecked();
    await userEvent.keyboard("n");
    await expect(canvas.getByRole("radio", { name: "No" })).toBeChecked();
  },
};

/**
 * A date within bounds: the field holds the pre-pick and its bounds; Enter confirms it, untouched,
 * so nothing is sent for it and the agent's pick stands (recorded as defaulted).
 */
export const DateInput: Story = {
  args: { options: local(one(typedQuestions.date as Question)) },
  beforeEach: clearSpies,
  play: async ({ canvasElement }) => {
    const date = within(canvasElement).getByLabelText("When is it due?");
    await expect(date).toHaveAttribute("type", "date");
    await expect(date).toHaveValue("2026-06-30");
    await expect(date).toHaveAttribute("min", "2026-01-01");
    await expect(date).toHaveAttribute("max", "2026-12-31");
    await userEvent.type(date, "{Enter}");
    await waitFor(() => expect(sentAnswers).toHaveBeenCalledWith({}));
  },
};

/** A required email with nothing pre-picked: there is no honest default for it. */
export const EmailInput: Story = {
  args: { options: local(one(typedQuestions.email as Question)) },
  beforeEach: clearSpies,
  play: async ({ canvasElement }) => {
    const email = within(canvasElement).getByRole("textbox", { name: "Who should we email?" });
    await expect(email).toHaveAttribute("type", "email");
    await expect(email).toHaveValue("");
    await userEvent.type(email, "ada@example.com{Enter}");
    await waitFor(() => expect(sentAnswers).toHaveBeenCalledWith({ contact: ["ada@example.com"] }));
  },
};

/** A URL, pre-picked; another typed in its place is what is sent. */
export const UrlInput: Story = {
  args: { options: local(one(typedQuestions.url as Question)) },
  beforeEach: clearSpies,
  play: async ({ canvasElement }) => {
    const url = within(canvasElement).getByRole("textbox", { name: "Which repository?" });
    await expect(url).toHaveAttribute("type", "url");
    await expect(url).toHaveValue("https://github.com/acme/api");
    await userEvent.clear(url);
    await userEvent.type(url, "https://github.com/acme/web{Enter}");
    await waitFor(() => expect(sentAnswers).toHaveBeenCalledWith({ repo: ["https://github.com/acme/web"] }));
  },
};

/** A native select. */
export const SelectInput: Story = {
  args: { options: local(one(typedQuestions.select as Question)) },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    const select = canvas.getByRole("combobox", { name: "Which region should I deploy to?" });
    await expect(select).toHaveValue("eu-west");
    await userEvent.selectOptions(select, "us-east");
    await expect(select).toHaveValue("us-east");
  },
};

/** A select that allows free text: pick an option, or write a value of one's own. */
export const SelectWithFreeText: Story = {
  args: { options: local(one({ ...(typedQuestions.select as Question), allowFreeText: true })) },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await userEvent.type(canvas.getByRole("textbox", { name: "Or write your own answer" }), "sa-east");
    await expect(canvas.getByRole("combobox")).toHaveValue("");
  },
};

/** Several options may be chosen: the pre-pick stays checked beside another. */
export const MultipleChoice: Story = {
  args: { options: local({ ...refactorerRequest, questions: [refactorerRequest.questions[1] as Question] }) },
  beforeEach: clearSpies,
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await expect(canvas.getByRole("checkbox", { name: "Unit" })).toBeChecked();
    const endToEnd = canvas.getByRole("checkbox", { name: "End to end" });
    await expect(endToEnd).not.toBeChecked();
    await userEvent.click(endToEnd);
    await expect(endToEnd).toBeChecked();
    await expect(canvas.getByRole("checkbox", { name: "Unit" })).toBeChecked();
    await userEvent.click(canvas.getByRole("button", { name: "Confirm" }));
    await waitFor(() => expect(sentAnswers).toHaveBeenCalledWith({ tests: ["unit", "e2e"] }));
  },
};

/** An answer of the person's own beside the options. */
export const FreeText: Story = {
  args: { options: local(one(freeTextQuestion)) },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await userEvent.type(canvas.getByRole("textbox", { name: "Or write your own answer" }), "Carol");
    await userEvent.click(canvas.getByRole("button", { name: "Confirm" }));
    // Each answer is isolated (<bdi>) in its own direction; together they read as one line.
    const answer = await canvas.findByText(
      (_, element) => element?.tagName === "DD" && /^Alice, Carol/.test(element.textContent ?? ""),
    );
    await expect(answer).toBeVisible();
  },
};

/** Fourteen options: hotkeys run past the first letters and never take `s`. */
export const LongOptionList: Story = {
  args: { options: local(one(longListQuestion)), autoFocus: true },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    // Options take a, b, c… in order (never `s`, which skips), so the fourteenth gets `n`.
    await userEvent.keyboard("n");
    await expect(canvas.getByRole("radio", { name: "Scala" })).toBeChecked();
    await expect(canvas.getByRole("radio", { name: "Scala" })).toHaveAttribute("aria-keyshortcuts", "n");
  },
};

const seatsQuestions = [typedQuestions.number as Question];

/** The rules refused a value: the person reads "Enter a number from 1 to 9." */
export const ValidationError: Story = {
  args: {
    options: local(one(typedQuestions.number as Question), {
      values: { seats: ["12"] },
      answer: {
        status: "rejected",
        error: "Some answers need fixing before they can be sent.",
        issues: validateAnswers(seatsQuestions, { seats: ["12"] }),
      },
    }),
  },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await expect(canvas.getByRole("alert")).toHaveTextContent("Enter a number from 1 to 9.");
    await expect(canvas.getByRole("spinbutton", { name: "How many seats?" })).toBeInvalid();
  },
};

/** The server's 400 lands on the question it names. */
export const ServerRejected: Story = {
  args: {
    options: {
      id: "story-server-400",
      request: bookingRequest,
      values: { contact: ["sam@example.com"] },
      onAnswer: async (): Promise<ElicitationOutcome> => {
        throw new ToolCallError({
          kind: "invalid",
          status: 400,
          error: "Some answers were refused",
          issues: [
            {
              questionId: "contact",
              rule: "email",
              message: 'answers["contact"] must be an address on this workspace',
            },
          ],
        });
      },
    },
    layout: "all-at-once",
  },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await userEvent.click(canvas.getByRole("button", { name: "Confirm" }));
    // Each question keeps its alert; the one that speaks is the email's.
    await waitFor(() =>
      expect(canvas.getAllByRole("alert").map((alert) => alert.textContent)).toEqual([
        "",
        "Enter an email address, like name@example.com.",
        "",
      ]),
    );
    await expect(canvas.getByRole("textbox", { name: "Who should we email?" })).toHaveFocus();
  },
};

/** The answers are on their way: the controls wait. */
export const Submitting: Story = {
  args: {
    options: local(refactorerRequest, { answer: { status: "submitting", answers: { scope: ["file"] } } }),
  },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await expect(canvas.getByRole("button", { name: "Sending…" })).toBeDisabled();
    await expect(canvas.getByRole("radio", { name: "This file" })).toBeDisabled();
    await expect(canvas.getByRole("form")).toHaveAttribute("aria-busy", "true");
  },
};

/** Settled: answers by label, the untouched ones marked as the agent's picks. */
export const Settled: Story = {
  args: {
    options: local(refactorerRequest, {
      outcome: settleAnswers(refactorerRequest.questions, { scope: ["file"] }),
    }),
  },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await expect(canvas.queryByRole("form")).toBeNull();
    await expect(canvas.getAllByText("pre-picked")).toHaveLength(2);
  },
};

/** Skipped: every pick stands. */
export const Skipped: Story = {
  args: { options: local(refactorerRequest, { outcome: settleSkipped(refactorerRequest.questions) }) },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await expect(canvas.getByText("Skipped: the agent's picks stand.")).toBeVisible();
    await expect(canvas.getAllByText("pre-picked")).toHaveLength(3);
  },
};

/** Dismissed: the run was cancelled before anyone answered; no form, and no answers. */
export const Dismissed: Story = {
  args: { options: local(refactorerRequest, { dismissed: true }) },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await expect(canvas.getByText("These questions were not answered: the run was cancelled.")).toBeVisible();
    await expect(canvas.queryByRole("button", { name: /Confirm|Next/ })).toBeNull();
  },
};

/** The answers never reached the server; Retry sends them again. */
export const FailedWithRetry: Story = {
  args: {
    options: local(refactorerRequest, {
      answer: { status: "failed", error: "The server could not be reached.", answers: { scope: ["file"] } },
    }),
  },
  beforeEach: clearSpies,
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    const said = canvas.getAllByRole("alert").map((alert) => alert.textContent);
    await expect(said).toEqual(["", expect.stringContaining("Your answers were not sent.")]);
    await userEvent.click(canvas.getByRole("button", { name: "Retry" }));
    await expect(await canvas.findByText("Answered")).toBeVisible();
    await expect(sentAnswers).toHaveBeenCalledWith({ scope: ["file"] });
  },
};

/** The whole form in the dark theme. */
export const DarkMode: Story = {
  args: { options: local(refactorerRequest), layout: "all-at-once" },
  globals: { theme: "dark" },
  play: async ({ canvasElement }) => {
    await waitFor(() => expect(document.documentElement).toHaveClass("dark"));
    await expect(within(canvasElement).getByRole("checkbox", { name: "Unit" })).toBeChecked();
  },
};

/** A hotkey picks its option; the arrows move between the options. */
export const HotkeySelect: Story = {
  args: { options: local(refactorerRequest), autoFocus: true },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await expect(canvas.getByRole("group", { name: "How much should I cover?" })).toHaveFocus();
    await userEvent.keyboard("a");
    await expect(canvas.getByRole("radio", { name: "This file" })).toBeChecked();
    await expect(canvas.getByRole("radio", { name: "The whole module" })).not.toBeChecked();
    // Held down, as a person presses it: the radio group checks what the arrow lands on.
    await userEvent.keyboard("{ArrowDown>}");
    await waitFor(() => expect(canvas.getByRole("radio", { name: "The whole module" })).toBeChecked());
    await userEvent.keyboard("{/ArrowDown}");
    await expect(canvas.getByRole("radio", { name: "The whole module" })).toHaveFocus();
  },
};

/** Enter through the questions: the last one submits, sending only what was touched. */
export const EnterThroughToSubmit: Story = {
  args: { options: local(refactorerRequest), autoFocus: true },
  beforeEach: clearSpies,
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await userEvent.keyboard("c");
    await userEvent.keyboard("{Enter}");
    await expect(canvas.getByRole("progressbar")).toHaveAttribute("aria-valuetext", "Question 2 of 3");
    await userEvent.keyboard("{Enter}");
    await expect(canvas.getByRole("progressbar")).toHaveAttribute("aria-valuetext", "Question 3 of 3");
    await userEvent.keyboard("{Enter}");
    await expect(await canvas.findByText("Answered")).toBeVisible();
    await expect(sentAnswers).toHaveBeenCalledTimes(1);
    await expect(sentAnswers).toHaveBeenCalledWith({ scope: ["importers"] });
    await expect(canvas.getByText("Everything that imports it")).toBeVisible();
  },
};

/** `s` skips the whole set. */
export const SkipWithS: Story = {
  args: { options: local(refactorerRequest), autoFocus: true },
  beforeEach: clearSpies,
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await userEvent.keyboard("s");
    await expect(await canvas.findByText("Skipped: the agent's picks stand.")).toBeVisible();
    await expect(sentSkips).toHaveBeenCalledOnce();
    await expect(sentAnswers).not.toHaveBeenCalled();
  },
};

/** An out-of-range number blocks the submit until it is fixed. */
export const OutOfRangeNumberBlocksSubmit: Story = {
  args: { options: local(bookingRequest), autoFocus: true },
  beforeEach: clearSpies,
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    const seats = canvas.getByRole("spinbutton", { name: "How many seats?" });
    await expect(seats).toHaveFocus();
    await userEvent.clear(seats);
    await userEvent.type(seats, "12{Enter}");
    await expect(canvas.getByRole("alert")).toHaveTextContent("Enter a number from 1 to 9.");
    await expect(seats).toHaveFocus();
    await expect(canvas.getByRole("progressbar")).toHaveAttribute("aria-valuetext", "Question 1 of 3");
    await userEvent.clear(seats);
    await userEvent.type(seats, "3{Enter}");
    await waitFor(() =>
      expect(canvas.getByRole("progressbar")).toHaveAttribute("aria-valuetext", "Question 2 of 3"),
    );
    await expect(sentAnswers).not.toHaveBeenCalled();
  },
};

/** The parts rearranged by hand: progress at the foot, each question in a card of its own. */
export const Composed: Story = {
  args: { options: local(refactorerRequest), layout: "all-at-once" },
  render: function Render({ options }) {
    const { block } = useElicitation(options);
    return (
      <ElicitationRoot block={block} layout="all-at-once" aria-label="Before I start" className="gap-3">
        <ElicitationPreamble className="text-base font-medium" />
        {block.questions.map((question) => (
          <ElicitationQuestion key={question.id} questionId={question.id} className="rounded-lg border p-3">
            <ElicitationLegend className="text-sm" />
            <ElicitationDescription />
            <ElicitationControl />
            <ElicitationError />
          </ElicitationQuestion>
        ))}
        <ElicitationStatus />
        <ElicitationActions />
        <ElicitationProgress />
      </ElicitationRoot>
    );
  },
  beforeEach: clearSpies,
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await userEvent.click(canvas.getByRole("checkbox", { name: "End to end" }));
    await userEvent.click(canvas.getByRole("button", { name: "Confirm" }));
    await expect(sentAnswers).toHaveBeenCalledWith({ tests: ["unit", "e2e"] });
  },
};
