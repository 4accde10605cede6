// @vitest-environment jsdom

import { act, cleanup, render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { Profiler } from "react";
import { afterEach, describe, expect, it } from "vitest";
import type { CreateElicitationOptions } from "@/hooks/create-elicitation";
import { createElicitation } from "@/hooks/create-elicitation";
import { settleAnswers, settleSkipped } from "@/lib/prepick/core/outcome";
import type { Answers, ElicitationOutcome } from "@/lib/prepick/core/question";
import { ToolCallError } from "@/lib/prepick/transport";
import { ChatElicitation } from "./chat-elicitation";
import { bookingRequest, refactorerRequest } from "./elicitation.fixture";
import { ElicitationOption } from "./elicitation-option";
import { ElicitationQuestion } from "./elicitation-question";
import { ElicitationRoot } from "./elicitation-root";

afterEach(cleanup);

/** A block whose answers and skips settle locally, recording what was sent. */
function recordingBlock(
  options: Partial<CreateElicitationOptions> & Pick<CreateElicitationOptions, "request">,
) {
  const sent: { answers: Answers[]; skips: number } = { answers: [], skips: 0 };
  const questions = options.request.questions;
  const block = createElicitation({
    id: "call-1",
    onAnswer: async (answers) => {
      sent.answers.push(answers);
      return settleAnswers(questions, answers);
    },
    onSkip: async () => {
      sent.skips += 1;
      return settleSkipped(questions);
    },
    ...options,
  });
  return { block, sent };
}

function form() {
  return screen.getByRole("form", { name: "Questions from the agent" });
}

/** The alerts that say something (each shown question keeps an empty one, ready). */
function saidAlerts(): HTMLElement[] {
  return screen.getAllByRole("alert").filter((alert) => alert.textContent !== "");
}

describe("ChatElicitation, one question at a time", () => {
  it("shows the preamble, the progress, the first question, its hotkeys and the pre-picked option", () => {
    const { block } = recordingBlock({ request: refactorerRequest });
    render(<ChatElicitation block={block} />);
    expect(screen.getByText(/Three questions before I start/)).toBeTruthy();
    const progress = screen.getByRole("progressbar", { name: "Question 1 of 3" });
    expect(progress.getAttribute("aria-valuetext")).toBe("Question 1 of 3");
    expect([progress.getAttribute("aria-valuenow"), progress.getAttribute("aria-valuemax")]).toEqual([
      "1",
      "3",
    ]);
    const group = screen.getByRole("group", { name: "How much should I cover?" });
    // The first question is described by the preamble and the progress, so both are heard with it.
    const describedBy = (group.getAttribute("aria-describedby") ?? "").split(" ");
    expect(describedBy.map((id) => document.getElementById(id)?.textContent)).toEqual([
      refactorerRequest.preamble,
      "Question 1 of 3",
    ]);
    const module = within(group).getByRole("radio", { name: "The whole module" });
    expect(module.getAttribute("aria-checked")).toBe("true");
    expect(module.getAttribute("aria-keyshortcuts")).toBe("b");
    expect(module.getAttribute("aria-describedby")).toBeTruthy();
    const markId = module.getAttribute("aria-describedby") ?? "";
    expect(document.getElementById(markId)?.textContent).toBe("pre-picked");
    expect(within(group).getByRole("radio", { name: "This file" }).getAttribute("aria-checked")).toBe(
      "false",
    );
    expect(screen.queryByRole("group", { name: "Which tests should I touch?" })).toBeNull();
    expect(screen.getByRole("button", { name: "Next" }).getAttribute("aria-keyshortcuts")).toBe("Enter");
    expect(
      screen.getByRole("button", { name: "Skip: use the agent's picks" }).getAttribute("aria-keyshortcuts"),
    ).toBe("s");
  });

  it("picks an option by its hotkey, moves on with Enter and submits only what was touched", async () => {
    const user = userEvent.setup();
    const { block, sent } = recordingBlock({ request: refactorerRequest });
    render(<ChatElicitation block={block} autoFocus />);
    // Each question takes the focus on its group, so its prompt is read before any option.
    expect(document.activeElement).toBe(screen.getByRole("group", { name: "How much should I cover?" }));
    await user.keyboard("a");
    expect(screen.getByRole("radio", { name: "This file" }).getAttribute("aria-checked")).toBe("true");
    expect(document.activeElement).toBe(screen.getByRole("radio", { name: "This file" }));
    await user.keyboard("{Enter}");
    expect(screen.getByRole("progressbar").getAttribute("aria-valuetext")).toBe("Question 2 of 3");
    const tests = screen.getByRole("group", { name: "Which tests should I touch?" });
    expect(document.activeElement).toBe(tests);
    // Described by its progress alone: the preamble goes with the first question.
    expect(document.getElementById(tests.getAttribute("aria-describedby") ?? "")?.textContent).toBe(
      "Question 2 of 3",
    );
    await user.keyboard("{Enter}");
    expect(screen.getByRole("progressbar").getAttribute("aria-valuetext")).toBe("Question 3 of 3");
    expect(document.activeElement).toBe(screen.getByRole("group", { name: /public API/ }));
    await user.keyboard("{Enter}");
    expect(sent.answers).toEqual([{ scope: ["file"] }]);
    const settled = await screen.findByText("Answered");
    expect(settled).toBeTruthy();
    expect(screen.queryByRole("form")).toBeNull();
    // The form is gone: the focus stays at this block, on the outcome, a group named "Answered".
    expect(document.activeElement).toBe(screen.getByRole("group", { name: "Answered" }));
    expect(document.activeElement?.getAttribute("data-slot")).toBe("elicitation-settled");
  });

  it("toggles checkboxes by hotkey and moves between them with the arrows", async () => {
    const user = userEvent.setup();
    const { block } = recordingBlock({ request: refactorerRequest, index: 1 });
    render(<ChatElicitation block={block} autoFocus />);
    const unit = screen.getByRole("checkbox", { name: "Unit" });
    const e2e = screen.getByRole("checkbox", { name: "End to end" });
    await user.keyboard("b");
    expect(e2e.getAttribute("aria-checked")).toBe("true");
    await user.keyboard("a");
    expect(unit.getAttribute("aria-checked")).toBe("false");
    expect(document.activeElement).toBe(unit);
    await user.keyboard("{ArrowDown}");
    expect(document.activeElement).toBe(e2e);
    await user.keyboard("{ArrowDown}");
    expect(document.activeElement).toBe(unit);
    expect(block.getSnapshot().questions[1]?.value).toEqual(["e2e"]);
  });

  it("moves from a question's group with the arrows as from its pick: a radio is picked, a checkbox only focused", async () => {
    const user = userEvent.setup();
    const { block } = recordingBlock({ request: refactorerRequest });
    render(<ChatElicitation block={block} autoFocus />);
    await user.keyboard("{ArrowUp}");
    const file = screen.getByRole("radio", { name: "This file" });
    expect(document.activeElement).toBe(file);
    expect(file.getAttribute("aria-checked")).toBe("true");
    await user.keyboard("{Enter}");
    expect(document.activeElement).toBe(screen.getByRole("group", { name: "Which tests should I touch?" }));
    await user.keyboard("{ArrowDown}");
    const e2e = screen.getByRole("checkbox", { name: "End to end" });
    expect(document.activeElement).toBe(e2e);
    expect(e2e.getAttribute("aria-checked")).toBe("false");
    expect(block.getSnapshot().questions[1]?.value).toEqual(["unit"]);
  });

  it("skips the whole set on s, and shows the skipped outcome with every pick marked", async () => {
    const user = userEvent.setup();
    const { block, sent } = recordingBlock({ request: refactorerRequest });
    render(<ChatElicitation block={block} autoFocus />);
    await user.keyboard("s");
    expect(sent.skips).toBe(1);
    expect(await screen.findByText("Skipped: the agent's picks stand.")).toBeTruthy();
    const settled = document.querySelector("[data-slot=elicitation-settled]");
    expect(settled?.getAttribute("data-status")).toBe("skipped");
    expect(settled?.querySelectorAll("[data-defaulted=true]").length).toBe(3);
    expect(screen.queryByRole("radio")).toBeNull();
  });

  it("asks once before a skip discards a changed pick: Escape keeps the change, s again skips", async () => {
    const user = userEvent.setup();
    const { block, sent } = recordingBlock({ request: refactorerRequest });
    render(<ChatElicitation block={block} autoFocus />);
    await user.keyboard("a");
    await user.keyboard("s");
    expect(sent.skips).toBe(0);
    const asking = screen.getByRole("group", { name: /You changed some answers/ });
    expect(document.activeElement).toBe(within(asking).getByRole("button", { name: "Keep my changes" }));
    await user.keyboard("{Escape}");
    expect(screen.queryByRole("group", { name: /You changed some answers/ })).toBeNull();
    const file = screen.getByRole("radio", { name: "This file" });
    expect(file.getAttribute("aria-checked")).toBe("true");
    expect(document.activeElement).toBe(screen.getByRole("group", { name: "How much should I cover?" }));

    await user.keyboard("s");
    await user.keyboard("s");
    expect(sent.skips).toBe(1);
    expect(await screen.findByText("Skipped: the agent's picks stand.")).toBeTruthy();
    // The agent's pick stood, not the discarded change.
    const scope = document.querySelector("[data-slot=elicitation-settled-answer][data-question-id=scope] dd");
    expect(scope?.textContent).toBe("The whole modulepre-picked");
  });

  it("skipping with a required email half typed says the agent decides, after asking", async () => {
    const user = userEvent.setup();
    const { block, sent } = recordingBlock({ request: bookingRequest, index: 1 });
    render(<ChatElicitation block={block} autoFocus />);
    await user.keyboard("sam@exa");
    // "Who should we email?" has no pick of the agent's: Skip promises what it does, not its picks.
    expect(screen.queryByRole("button", { name: "Skip: use the agent's picks" })).toBeNull();
    await user.click(screen.getByRole("button", { name: "Skip: let the agent decide" }));
    screen.getByRole("group", { name: "You changed some answers. Skip anyway and let the agent decide?" });
    await user.click(screen.getByRole("button", { name: "Discard my changes and skip" }));
    expect(sent.skips).toBe(1);
    await screen.findByRole("group", { name: "Skipped: the agent decides what it has no pick for." });
    const left = await screen.findAllByText("No answer: the agent decides");
    expect(left.map((row) => row.closest("[data-question-id]")?.getAttribute("data-question-id"))).toEqual([
      "contact",
      "notes",
    ]);
  });

  it("ignores hotkeys while a text field has the focus, and Enter while an input method composes", async () => {
    const user = userEvent.setup();
    const { block, sent } = recordingBlock({ request: bookingRequest, index: 1 });
    render(<ChatElicitation block={block} autoFocus />);
    const email = screen.getByRole("textbox", { name: "Who should we email?" });
    expect(document.activeElement).toBe(email);
    await user.keyboard("sam@example.com");
    expect((email as HTMLInputElement).value).toBe("sam@example.com");
    expect(sent.skips).toBe(0);
    await act(async () => {
      email.dispatchEvent(new KeyboardEvent("keydown", { key: "Enter", bubbles: true, isComposing: true }));
    });
    expect(screen.getByRole("progressbar").getAttribute("aria-valuetext")).toBe("Question 2 of 3");
    await user.keyboard("{Enter}");
    expect(screen.getByRole("progressbar").getAttribute("aria-valuetext")).toBe("Question 3 of 3");
  });

  it("refuses an out-of-range number: the error is announced, linked and focused, and nothing is sent", async () => {
    const user = userEvent.setup();
    const { block, sent } = recordingBlock({ request: bookingRequest });
    render(<ChatElicitation block={block} autoFocus />);
    const seats = screen.getByRole("spinbutton", { name: "How many seats?" });
    expect(seats.getAttribute("aria-describedby")).toContain(
      screen.getByText("Between 1 and 9.").getAttribute("id"),
    );
    await user.clear(seats);
    await user.type(seats, "12");
    // The alert is there, empty, before the refusal: what is written into it is said.
    expect(screen.getByRole("alert").textContent).toBe("");
    await user.keyboard("{Enter}");
    const alert = screen.getByRole("alert");
    expect(alert.textContent).toBe("Enter a number from 1 to 9.");
    expect(seats.getAttribute("aria-invalid")).toBe("true");
    expect(seats.getAttribute("aria-describedby")).toContain(alert.id);
    expect(document.activeElement).toBe(seats);
    expect(screen.getByRole("progressbar").getAttribute("aria-valuetext")).toBe("Question 1 of 3");
    expect(sent.answers).toEqual([]);
    await user.clear(seats);
    await user.type(seats, "4");
    expect(screen.getByRole("alert").textContent).toBe("");
  });
});

describe("ChatElicitation, all at once", () => {
  it("submits on Enter and moves the focus to the first invalid control", async () => {
    const user = userEvent.setup();
    const { block, sent } = recordingBlock({ request: bookingRequest });
    render(<ChatElicitation block={block} layout="all-at-once" />);
    expect(screen.getByText("3 questions")).toBeTruthy();
    const notes = screen.getByRole("textbox", { name: "Anything else?" });
    await user.click(notes);
    await user.keyboard("{Control>}{Enter}{/Control}");
    expect(sent.answers).toEqual([]);
    const email = screen.getByRole("textbox", { name: "Who should we email?" });
    expect(document.activeElement).toBe(email);
    expect(email.getAttribute("aria-invalid")).toBe("true");
    // The refusal names the question it is on (the prompt set apart for its own direction).
    const said = screen
      .getByText("“\u2068Who should we email?\u2069” needs an answer.")
      .closest("[role=alert]");
    expect(said?.closest("[data-question-id]")?.getAttribute("data-question-id")).toBe("contact");
    await user.type(email, "sam@example.com{Enter}");
    expect(sent.answers).toEqual([{ contact: ["sam@example.com"] }]);
    const answered = await screen.findAllByRole("definition");
    expect(answered.map((item) => item.textContent)).toEqual(["2pre-picked", "sam@example.com", "No answer"]);
  });

  it("places a server's 400 on the question it names", async () => {
    const user = userEvent.setup();
    const block = createElicitation({
      id: "call-400",
      request: bookingRequest,
      values: { contact: ["sam@example.com"] },
      onAnswer: async () => {
        throw new ToolCallError({
          kind: "invalid",
          status: 400,
          error: "Some answers were refused",
          issues: [
            { questionId: "contact", rule: "email", message: 'answers["contact"] is not a known address' },
          ],
        });
      },
    });
    render(<ChatElicitation block={block} layout="all-at-once" />);
    await user.click(screen.getByRole("button", { name: "Confirm" }));
    const email = screen.getByRole("textbox", { name: "Who should we email?" });
    // The server's rule, said as a person reads it, on the question it names.
    const [alert, ...others] = saidAlerts();
    expect(others).toEqual([]);
    expect(alert?.textContent).toBe("Enter an email address, like name@example.com.");
    expect(alert?.closest("[data-question-id]")?.getAttribute("data-question-id")).toBe("contact");
    expect(document.activeElement).toBe(email);
    expect(form().getAttribute("data-status")).toBe("invalid");
  });

  it("offers a retry after a network failure, and the retry sends the same answers", async () => {
    const user = userEvent.setup();
    const calls: Answers[] = [];
    const block = createElicitation({
      id: "call-offline",
      request: refactorerRequest,
      onAnswer: async (answers): Promise<ElicitationOutcome> => {
        calls.push(answers);
        if (calls.length === 1) throw new Error("Failed to fetch");
        return settleAnswers(refactorerRequest.questions, answers);
      },
    });
    render(<ChatElicitation block={block} layout="all-at-once" />);
    await user.click(screen.getByRole("radio", { name: "This file" }));
    await user.click(screen.getByRole("button", { name: "Confirm" }));
    expect(saidAlerts().map((alert) => alert.textContent)).toEqual([
      expect.stringContaining("Your answers were not sent."),
    ]);
    expect(block.getSnapshot().answer).toMatchObject({ status: "failed", error: "Failed to fetch" });
    const retry = screen.getByRole("button", { name: "Retry" });
    expect(document.activeElement).toBe(retry);
    await user.click(retry);
    expect(calls).toEqual([{ scope: ["file"] }, { scope: ["file"] }]);
    expect(await screen.findByText("Answered")).toBeTruthy();
  });
});

describe("the settled and dismissed views", () => {
  it("draws a settled block from its outcome, never as a form, marking defaulted answers", () => {
    const outcome = settleAnswers(refactorerRequest.questions, { scope: ["importers"] });
    const { block } = recordingBlock({ request: refactorerRequest, outcome });
    render(<ChatElicitation block={block} />);
    expect(screen.queryByRole("form")).toBeNull();
    expect(screen.queryByRole("radio")).toBeNull();
    const rows = [...document.querySelectorAll("[data-slot=elicitation-settled-answer]")];
    expect(rows.map((row) => row.getAttribute("data-defaulted"))).toEqual([null, "true", "true"]);
    expect(screen.getByText("Everything that imports it")).toBeTruthy();
    expect(screen.getByText("Unit")).toBeTruthy();
    expect(screen.getByText("Keep it unchanged")).toBeTruthy();
  });

  it("says so when the run was cancelled before anyone answered", () => {
    const { block } = recordingBlock({ request: refactorerRequest, dismissed: true });
    render(<ChatElicitation block={block} />);
    expect(screen.getByText(/the run was cancelled/)).toBeTruthy();
    expect(screen.queryByRole("form")).toBeNull();
  });
});

describe("the parts", () => {
  it("name the missing provider when used outside it", () => {
    const { block } = recordingBlock({ request: refactorerRequest });
    const quiet = console.error;
    console.error = () => {};
    try {
      expect(() => render(<ElicitationQuestion questionId="scope" />)).toThrow(
        "`ElicitationQuestion` must be used within `ElicitationRoot`",
      );
      expect(() =>
        render(
          <ElicitationRoot block={block}>
            <ElicitationOption value="file" />
          </ElicitationRoot>,
        ),
      ).toThrow("`ElicitationOption` must be used within `ElicitationQuestion`");
    } finally {
      console.error = quiet;
    }
  });

  it("re-render only the question a keystroke lands in", async () => {
    const user = userEvent.setup();
    const { block } = recordingBlock({ request: bookingRequest });
    const renders: Record<string, number> = {};
    const count = (id: string) => () => {
      renders[id] = (renders[id] ?? 0) + 1;
    };
    render(
      <ElicitationRoot block={block} layout="all-at-once" aria-label="Booking">
        {bookingRequest.questions.map((question) => (
          <Profiler key={question.id} id={question.id} onRender={count(question.id)}>
            <ElicitationQuestion questionId={question.id} />
          </Profiler>
        ))}
      </ElicitationRoot>,
    );
    const before = { ...renders };
    await user.type(screen.getByRole("textbox", { name: "Anything else?" }), "Aisle seats");
    expect(renders.notes).toBeGreaterThan(before.notes ?? 0);
    expect(renders.seats).toBe(before.seats);
    expect(renders.contact).toBe(before.contact);
  });
});
