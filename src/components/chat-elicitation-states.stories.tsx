import type { Meta, StoryObj } from "@storybook/react-vite";
import { useState } from "react";
import { expect, mocked, userEvent, waitFor, within } from "storybook/test";
import type { CreateElicitationOptions } from "@/hooks/create-elicitation";
import { useElicitation } from "@/hooks/use-elicitation";
import { settleAnswers, settleSkipped } from "@/lib/prepick/core/outcome";
import { loadPatternEngine, patternEngineReady } from "@/lib/prepick/core/pattern";
import type { ElicitationOutcome, ElicitationRequest, Question } from "@/lib/prepick/core/question";
import { ToolCallError } from "@/lib/prepick/transport";
import { arabicMessages, germanMessages } from "../../demo/demo-messages";
import { ChatElicitation } from "./chat-elicitation";
import { bookingRequest, refactorerRequest, typedQuestions } from "./elicitation.fixture";

/** A fresh block per mount, so a play function never sees another story's answers. */
function ElicitationStory({ options, dir }: { options: CreateElicitationOptions; dir?: "rtl" | "ltr" }) {
  const { block } = useElicitation(options);
  return (
    <div dir={dir}>
      <ChatElicitation block={block} />
    </div>
  );
}

const meta = {
  title: "Chat/ChatElicitation/States",
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

function settlesLocally(request: ElicitationRequest, id: string): CreateElicitationOptions {
  return {
    id,
    request,
    onAnswer: async (answers) => settleAnswers(request.questions, answers),
    onSkip: async () => settleSkipped(request.questions),
  };
}

/** A set whose run's deadline is `expiresInMs` after it mounts (computed then, not when the stories load). */
function DeadlineStory({ expiresInMs, dismissed = false }: { expiresInMs: number; dismissed?: boolean }) {
  const [expiresAt] = useState(() => new Date(Date.now() + expiresInMs).toISOString());
  return (
    <ElicitationStory
      options={{
        ...settlesLocally(refactorerRequest, `story-deadline-${expiresInMs}`),
        expiresAt,
        dismissed,
      }}
    />
  );
}

/** Waiting under its run's deadline: when to answer by, how long is left, and that no one answers for the person. */
export const WithDeadline: Story = {
  args: { options: settlesLocally(refactorerRequest, "story-deadline") },
  render: () => <DeadlineStory expiresInMs={3 * 3_600_000 + 60_000} />,
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    const form = canvas.getByRole("form", { name: "Questions from the agent" });
    await expect(
      within(form).getByText(
        /^Answer by .+ \(3 hours left\)\. If no one answers by then, the agent stops\.$/,
      ),
    ).toBeVisible();
    await expect(within(form).getByRole("button", { name: "Next" })).toBeEnabled();
  },
};

/**
 * The deadline passes with the form open: it says the set can no longer be answered (the
 * reference server then stops the run and the set is dismissed as expired, never answered).
 */
export const DeadlinePasses: Story = {
  args: { options: settlesLocally(refactorerRequest, "story-deadline-passes") },
  render: () => <DeadlineStory expiresInMs={1_500} />,
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await expect(canvas.getByText(/^Answer by .+ \(\d seconds? left\)/)).toBeVisible();
    await expect(
      await canvas.findByText(
        /^These questions expired at .+ and can no longer be answered\.$/,
        {},
        { timeout: 5_000 },
      ),
    ).toBeVisible();
  },
};

/**
 * Past its deadline and still shown (an AG-UI agent's interrupt waits to be skipped), in German:
 * the deadline line and the refusal of a late answer are the page's own words; the transport's
 * English reason stays on the answer's technical error.
 */
export const DeadlinePassedRefusedInGerman: Story = {
  args: {
    options: {
      id: "story-deadline-lapsed-de",
      request: { source: "ask", questions: [refactorerRequest.questions[0] as Question] },
      messages: germanMessages,
      expiresAt: "2026-01-05T09:30:00.000Z",
      onAnswer: async () => {
        throw new ToolCallError({
          kind: "invalid",
          status: 400,
          error:
            "This question set expired at 2026-01-05T09:30:00.000Z and can no longer be answered; skip it to let the agent go on.",
          issues: [],
        });
      },
      onSkip: async () => settleSkipped(refactorerRequest.questions.slice(0, 1)),
    },
  },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    const form = canvas.getByRole("form", { name: "Fragen des Agenten" });
    await expect(
      within(form).getByText(
        /^Diese Fragen sind um .+ abgelaufen und können nicht mehr beantwortet werden\.$/,
      ),
    ).toBeVisible();
    await userEvent.click(within(form).getByRole("button", { name: "Bestätigen" }));
    const refusal = await within(form).findByText("Diese Antworten wurden nicht angenommen.");
    await expect(refusal.closest("[role=alert]")).not.toBeNull();
    await expect(form.textContent).not.toMatch(/expired|skip it/);
  },
};

/** Expired: the run's deadline passed before anyone answered; no form, no answers, and it says why. */
export const Expired: Story = {
  args: { options: settlesLocally(refactorerRequest, "story-expired") },
  render: () => <DeadlineStory expiresInMs={-60_000} dismissed />,
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await expect(
      canvas.getByText(/^These questions expired at .+ before anyone answered, so the agent stopped\.$/),
    ).toBeVisible();
    await expect(canvas.queryByRole("button", { name: /Confirm|Next/ })).toBeNull();
  },
};

/** The form in a second language the app ships: every word of ours from its messages. */
export const SecondLanguage: Story = {
  args: { options: { ...settlesLocally(refactorerRequest, "story-de"), messages: germanMessages } },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    const form = canvas.getByRole("form", { name: "Fragen des Agenten" });
    await expect(within(form).getByText("Frage 1 von 3")).toBeVisible();
    await userEvent.click(within(form).getByRole("button", { name: "Weiter" }));
    await expect(await within(form).findByText("Frage 2 von 3")).toBeVisible();
    await expect(within(form).getByRole("button", { name: "Zurück" })).toBeVisible();
  },
};

/**
 * Right to left: the progress, the options and the buttons start at the right, and the arrows move
 * as a person reading right to left expects: ArrowLeft goes on to the next option, ArrowRight back.
 */
export const RightToLeft: Story = {
  args: {
    options: { ...settlesLocally(refactorerRequest, "story-ar"), messages: arabicMessages },
    dir: "rtl",
  },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    const form = canvas.getByRole("form", { name: "أسئلة من الوكيل" });
    await expect(getComputedStyle(form).direction).toBe("rtl");
    const confirm = within(form).getByRole("button", { name: "التالي" });
    const skip = within(form).getByRole("button", { name: /تخطٍّ/ });
    // The first button stands to the right of the second.
    await expect(confirm.getBoundingClientRect().left).toBeGreaterThan(skip.getBoundingClientRect().left);

    // The options are laid out right to left too: the hotkey at the right, the label to its left.
    const group = within(form).getByRole("radiogroup");
    await expect(getComputedStyle(group).direction).toBe("rtl");
    const module = within(form).getByRole("radio", { name: "The whole module" });
    const row = module.closest<HTMLElement>("[data-slot=elicitation-option]");
    const key = row?.querySelector("[data-slot=elicitation-hotkey]");
    const label = row?.querySelector("label");
    await expect(key?.getBoundingClientRect().left).toBeGreaterThan(label?.getBoundingClientRect().left ?? 0);

    // ArrowLeft picks the next option (the one below), ArrowRight the previous one. The radio group
    // moves the focus a moment after the key goes down, and picks while the key is held, as a
    // person's key press is.
    const press = async (key: string, lands: HTMLElement) => {
      await userEvent.keyboard(`{${key}>}`);
      await waitFor(() => expect(lands).toHaveFocus());
      await userEvent.keyboard(`{/${key}}`);
    };
    module.focus();
    const importers = within(form).getByRole("radio", { name: "Everything that imports it" });
    await press("ArrowLeft", importers);
    await expect(importers).toBeChecked();
    await press("ArrowRight", module);
    await expect(module).toBeChecked();

    // The checkboxes of the next question move the same way.
    await userEvent.keyboard("{Enter}");
    const unit = await within(form).findByRole("checkbox", { name: "Unit" });
    unit.focus();
    await userEvent.keyboard("{ArrowLeft}");
    await expect(within(form).getByRole("checkbox", { name: "End to end" })).toHaveFocus();
    await userEvent.keyboard("{ArrowRight}");
    await expect(unit).toHaveFocus();
  },
};

/** Sending fails and keeps failing: the form stays in its failed state with Retry, not "Answered". */
export const FailedStaysFailed: Story = {
  args: {
    options: {
      id: "story-offline",
      request: refactorerRequest,
      answer: { status: "failed", error: "Failed to fetch", answers: { scope: ["file"] } },
      onAnswer: async (): Promise<ElicitationOutcome> => {
        throw new TypeError("Failed to fetch");
      },
    },
  },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    // What the alerts say (the question's own stays empty): the form's failure.
    const said = () => canvas.getAllByRole("alert").map((alert) => alert.textContent);
    await expect(said()).toEqual([
      "",
      expect.stringContaining("Your answers were not sent. Check your connection, then retry."),
    ]);
    await userEvent.click(canvas.getByRole("button", { name: "Retry" }));
    await expect(await canvas.findByRole("button", { name: "Retry" })).toBeVisible();
    await expect(canvas.getByRole("form")).toHaveAttribute("data-status", "failed");
    await expect(canvas.queryByText("Answered")).toBeNull();
    await expect(said().join(" ")).not.toContain("Failed to fetch");
  },
};

/** The server refuses an answer: the form stays, in its invalid state, the sentence on the question. */
export const RejectedStaysInvalid: Story = {
  args: {
    options: {
      id: "story-rejected",
      request: bookingRequest,
      values: { contact: ["sam@example.com"] },
      onAnswer: async (): Promise<ElicitationOutcome> => {
        throw new ToolCallError({
          kind: "invalid",
          status: 400,
          error: "Some answers were refused",
          issues: [
            { questionId: "contact", rule: "email", message: 'answers["contact"] must be an email address' },
          ],
        });
      },
    },
  },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    const form = canvas.getByRole("form");
    for (let step = 0; step < 3 && within(form).queryByRole("button", { name: "Confirm" }) === null; step++) {
      await userEvent.click(within(form).getByRole("button", { name: "Next" }));
    }
    await userEvent.click(await within(form).findByRole("button", { name: "Confirm" }));
    await expect(await canvas.findByText("Enter an email address, like name@example.com.")).toBeVisible();
    await expect(form).toHaveAttribute("data-status", "invalid");
    await expect(canvas.queryByText("Answered")).toBeNull();
    await expect(form.textContent).not.toContain('answers["');
  },
};

/** Skipping after a change asks once, inline, whether to discard it; Keep goes back to the form. */
export const SkipConfirmation: Story = {
  args: { options: settlesLocally(refactorerRequest, "story-skip-confirm") },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await userEvent.click(canvas.getByRole("radio", { name: "This file" }));
    await userEvent.click(canvas.getByRole("button", { name: "Skip: use the agent's picks" }));
    await expect(
      canvas.getByText("You changed some answers. Skip anyway and let the agent's picks stand?"),
    ).toBeVisible();
    await expect(canvas.getByRole("button", { name: "Keep my changes" })).toHaveFocus();
    await userEvent.click(canvas.getByRole("button", { name: "Keep my changes" }));
    await expect(canvas.getByRole("radio", { name: "This file" })).toBeChecked();
  },
};

/**
 * A set with a question the agent has no pick for ("Who should we email?"): Skip says the agent
 * decides, not that its picks stand; the skipped set says so, and which answers it decides.
 */
export const SkipLeavesToAgent: Story = {
  args: { options: settlesLocally(bookingRequest, "story-skip-to-agent") },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    const form = canvas.getByRole("form", { name: "Questions from the agent" });
    await expect(within(form).queryByRole("button", { name: "Skip: use the agent's picks" })).toBeNull();
    await expect(within(form).getByText("skip: let the agent decide")).toBeInTheDocument();
    await userEvent.click(within(form).getByRole("button", { name: "Skip: let the agent decide" }));
    const settled = await canvas.findByRole("group", {
      name: "Skipped: the agent decides what it has no pick for.",
    });
    const rows = [...settled.querySelectorAll("[data-slot=elicitation-settled-answer] dd")];
    await expect(rows.map((row) => row.textContent)).toEqual([
      "2pre-picked",
      "No answer: the agent decides",
      "No answer: the agent decides",
    ]);
  },
};

/** Options with a line of description each, read out with the option. */
export const OptionsWithDescriptions: Story = {
  args: {
    options: settlesLocally(
      {
        source: "ask",
        questions: [
          {
            id: "plan",
            prompt: "Which plan?",
            options: [
              { value: "free", label: "Free", description: "One project, community support." },
              { value: "team", label: "Team", description: "Ten projects, email support within a day." },
            ],
            defaults: ["team"],
          },
        ],
      },
      "story-descriptions",
    ),
  },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    const team = canvas.getByRole("radio", { name: "Team" });
    await expect(team).toHaveAccessibleDescription(/Ten projects, email support within a day\./);
    await expect(canvas.getByText("One project, community support.")).toBeVisible();
  },
};

/** Lets the held-back pattern engine arrive; set by {@link PatternEngineLoading}'s `beforeEach`. */
let releasePatternEngine: () => void = () => {};

/**
 * A question with a pattern while the lazily loaded pattern engine is still on its way: Next
 * waits, the form busy and the button saying "Checking…", the answer and the focus in place, then
 * goes on once the engine is here.
 */
export const PatternEngineLoading: Story = {
  args: {
    options: settlesLocally(
      { source: "ask", questions: [typedQuestions.text as Question, typedQuestions.boolean as Question] },
      "story-pattern-loading",
    ),
  },
  beforeEach: () => {
    const arrival = new Promise<void>((resolve) => {
      releasePatternEngine = resolve;
    });
    // The set starts without the engine, and its load takes until the play function lets it
    // through; then the real load runs, so the pattern is checked by the engine itself.
    mocked(patternEngineReady).mockReturnValueOnce(false);
    mocked(loadPatternEngine).mockImplementationOnce(() => arrival.then(() => loadPatternEngine()));
  },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    const form = canvas.getByRole("form");
    const field = canvas.getByRole("textbox", { name: "What should the branch be called?" });
    await userEvent.clear(field);
    await userEvent.type(field, "fix-login");
    await userEvent.keyboard("{Enter}");

    await expect(form).toHaveAttribute("aria-busy", "true");
    await expect(form).toHaveAttribute("data-status", "checking");
    await expect(canvas.getByRole("button", { name: "Checking…" })).toBeVisible();
    await expect(canvas.getByText("Question 1 of 2")).toBeVisible();
    await expect(field).toHaveValue("fix-login");
    await expect(field).toHaveFocus();
    // The question's alert is there, ready, and says nothing while the rule is checked.
    await expect(canvas.getByRole("alert").textContent).toBe("");

    releasePatternEngine();
    await expect(await canvas.findByText("Question 2 of 2")).toBeVisible();
    await expect(form).not.toHaveAttribute("aria-busy");
    await expect(canvas.getByRole("button", { name: "Confirm" })).toBeEnabled();
    await expect(mocked(loadPatternEngine)).toHaveBeenCalled();
  },
};
