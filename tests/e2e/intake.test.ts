import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import {
  assistantText,
  composer,
  expectChecked,
  questionForm,
  recordRequests,
  saveThemedScreenshots,
  sendMessage,
  settledOutcome,
  threadOf,
  waitForQuestions,
} from "./support/browser";
import { startDemoSession } from "./support/demo-session";
import { frameKinds } from "./support/thread";

// The product as `npm start` runs it, driven in real Chromium the way a person uses the demo page.
const FLOW_TIMEOUT = 60_000;

const demo = startDemoSession("prepick-e2e-intake-");

/** A page in a fresh context (a new actor), on `agent`'s conversation. */
const open = (agent: string): Promise<Page> => demo.open(agent);

/** The answers the person posted, parsed from each request the page made to `/agent/tool-call/answer`. */
function postedBodies(requests: ReturnType<typeof recordRequests>): unknown[] {
  return requests.map((request) => request.postDataJSON() as unknown);
}

/** The settled view's rows: question id, shown labels (without the mark) and whether defaulted. */
async function settledRows(page: Page) {
  return settledOutcome(page)
    .locator('[data-slot="elicitation-settled-answer"]')
    .evaluateAll((rows) =>
      rows.map((row) => {
        const shown = row.querySelector("dd")?.cloneNode(true) as HTMLElement | undefined;
        for (const mark of shown?.querySelectorAll('[data-slot="elicitation-pre-picked"]') ?? [])
          mark.remove();
        return {
          id: row.getAttribute("data-question-id"),
          shown: shown?.textContent?.trim(),
          defaulted: row.getAttribute("data-defaulted") === "true",
          marked: row.querySelector('[data-slot="elicitation-pre-picked"]') !== null,
        };
      }),
    );
}

describe("planner's questions, asked through the model", () => {
  it(
    "takes a free-text answer instead of an option, and the agent reads it as typed",
    async () => {
      const page = await open("planner");
      const answers = recordRequests(page, "/agent/tool-call/answer");
      await sendMessage(page, "Plan the migration to the new billing API");

      const form = questionForm(page);
      await waitForQuestions(page, "Question 1 of 2");
      await expectChecked(page.getByRole("radio", { name: /This week/ }), true);
      await form.getByRole("textbox", { name: "Or write your own answer" }).fill("Until the beta ships");
      // Typing replaces the pick on a single-choice question.
      await expectChecked(page.getByRole("radio", { name: /This week/ }), false);
      await form.getByRole("button", { name: "Next" }).click();
      await form.getByText("Question 2 of 2").waitFor();
      await page.keyboard.press("Enter");

      await settledOutcome(page).getByText("Answered").waitFor();
      expect(await settledRows(page)).toEqual([
        { id: "horizon", shown: "Until the beta ships", defaulted: false, marked: false },
        { id: "detail", shown: "An outline", defaulted: true, marked: true },
      ]);
      const posted = postedBodies(answers) as { answers?: Record<string, string[]> }[];
      expect(posted.map((body) => body.answers)).toEqual([{ horizon: ["Until the beta ships"] }]);
      await expect
        .poll(() => assistantText(page))
        .toContain("How far ahead should the plan go? Until the beta ships");
    },
    FLOW_TIMEOUT,
  );
});

describe("refactorer's intake in the demo page", () => {
  it(
    "asks before any model output; Enter confirms the pre-picked answers and the reply follows in the same turn",
    async () => {
      const page = await open("refactorer");
      const answers = recordRequests(page, "/agent/tool-call/answer");
      await sendMessage(page, "Refactor the date helpers in utils.ts");

      const form = questionForm(page);
      await waitForQuestions(page);
      await form
        .getByText(
          "Three questions before I start. I have pre-picked what I would choose, so confirming is enough.",
        )
        .waitFor();
      await expectChecked(page.getByRole("radio", { name: "The whole module" }), true);
      await expectChecked(page.getByRole("radio", { name: "This file" }), false);
      // Nothing of the model yet: no text on the page, and no model step in the stored run.
      expect(await page.locator('[data-role="assistant"] [data-slot="chat-message-text"]').count()).toBe(0);
      // The question set is streamed before the run parks; the park lands a moment after the form shows.
      await expect
        .poll(() => frameKinds(page, threadOf(page)))
        .toEqual(["run-start", "elicitation", "run-parked"]);
      expect(await composer(page).isDisabled()).toBe(true);
      await saveThemedScreenshots(page, "pending");

      await page.keyboard.press("Enter");
      await form.getByText("Question 2 of 3").waitFor();
      await page.keyboard.press("Enter");
      await form.getByText("Question 3 of 3").waitFor();
      await page.keyboard.press("Enter");

      const settled = settledOutcome(page);
      await settled.getByText("Answered").waitFor();
      expect(await settledRows(page)).toEqual([
        { id: "scope", shown: "The whole module", defaulted: true, marked: true },
        { id: "tests", shown: "Unit", defaulted: true, marked: true },
        { id: "api", shown: "Keep it unchanged", defaulted: true, marked: true },
      ]);
      // Confirming sent no answers: the server resolves the defaults against the request it holds.
      const posted = postedBodies(answers) as { toolCallId?: string; answers?: Record<string, string[]> }[];
      expect(posted).toHaveLength(1);
      expect(posted[0]?.toolCallId).toMatch(/^intake-/);
      expect(Object.keys(posted[0]?.answers ?? {})).toEqual([]);

      // The agent's reply comes in the same assistant turn as the settled questions.
      await expect.poll(() => assistantText(page)).toContain("How much should I cover? The whole module");
      expect(await page.locator('[data-role="assistant"]').count()).toBe(1);
      expect(
        await page.locator('[data-role="assistant"]').locator('[data-slot="elicitation-settled"]').count(),
      ).toBe(1);
      await expect.poll(() => composer(page).isEnabled()).toBe(true);
      await expect.poll(() => frameKinds(page, threadOf(page))).toContain("run-finish");
      await saveThemedScreenshots(page, "settled");
    },
    FLOW_TIMEOUT,
  );

  it(
    "changes pre-picks with hotkeys, toggles a multiple-choice question, and the agent reads the new labels",
    async () => {
      const page = await open("refactorer");
      const answers = recordRequests(page, "/agent/tool-call/answer");
      await sendMessage(page, "Refactor the parser");
      const form = questionForm(page);
      await waitForQuestions(page);

      // `a` picks "This file" in place of the pre-picked "The whole module".
      await page.keyboard.press("a");
      await expectChecked(page.getByRole("radio", { name: "This file" }), true);
      await expectChecked(page.getByRole("radio", { name: "The whole module" }), false);
      await page.keyboard.press("Enter");

      // A multiple-choice question: `b` adds "End to end", `a` takes the pre-picked "Unit" away.
      await form.getByText("Question 2 of 3").waitFor();
      const unit = page.getByRole("checkbox", { name: "Unit" });
      const e2e = page.getByRole("checkbox", { name: "End to end" });
      await expectChecked(unit, true);
      await page.keyboard.press("b");
      await expectChecked(e2e, true);
      await expectChecked(unit, true);
      await page.keyboard.press("a");
      await expectChecked(unit, false);
      await page.keyboard.press("a");
      await expectChecked(unit, true);
      await page.keyboard.press("a");
      await page.keyboard.press("Enter");

      // Back goes to the previous question with its choice kept; the last one stays pre-picked.
      await form.getByText("Question 3 of 3").waitFor();
      await form.getByRole("button", { name: "Back" }).click();
      await form.getByText("Question 2 of 3").waitFor();
      await expectChecked(e2e, true);
      await expectChecked(unit, false);
      await form.getByRole("button", { name: "Next" }).click();
      await form.getByText("Question 3 of 3").waitFor();
      await form.getByRole("button", { name: "Confirm" }).click();

      await settledOutcome(page).getByText("Answered").waitFor();
      expect(await settledRows(page)).toEqual([
        { id: "scope", shown: "This file", defaulted: false, marked: false },
        { id: "tests", shown: "End to end", defaulted: false, marked: false },
        { id: "api", shown: "Keep it unchanged", defaulted: true, marked: true },
      ]);
      expect(postedBodies(answers)).toHaveLength(1);
      const [body] = postedBodies(answers) as { answers?: Record<string, string[]> }[];
      expect(body?.answers?.scope).toEqual(["file"]);
      expect(body?.answers?.tests).toEqual(["e2e"]);
      await expect.poll(() => assistantText(page)).toContain("How much should I cover? This file");
      expect(await assistantText(page)).toContain("Which tests should I touch? End to end");
    },
    FLOW_TIMEOUT,
  );

  it(
    "s skips: the settled view says so and the agent proceeds on its own picks",
    async () => {
      const page = await open("refactorer");
      const answers = recordRequests(page, "/agent/tool-call/answer");
      const skips = recordRequests(page, "/agent/tool-call/skip");
      await sendMessage(page, "Refactor the logger");
      await waitForQuestions(page);
      // A changed pick does not survive a skip: skipping leaves every choice to the agent, after
      // asking once whether to discard the change (`s` again confirms).
      await page.keyboard.press("a");
      await page.keyboard.press("s");
      await questionForm(page)
        .getByRole("group", { name: /You changed some answers/ })
        .waitFor();
      expect(skips).toHaveLength(0);
      await page.keyboard.press("s");

      const settled = settledOutcome(page);
      await settled.getByText(/^Skipped/).waitFor();
      expect(await settled.getAttribute("data-status")).toBe("skipped");
      expect((await settledRows(page)).map((row) => row.shown)).toEqual([
        "The whole module",
        "Unit",
        "Keep it unchanged",
      ]);
      expect(postedBodies(skips)).toEqual([{ toolCallId: expect.stringMatching(/^intake-/) }]);
      expect(answers).toHaveLength(0);
      await expect.poll(() => assistantText(page)).toContain("You left the choices to me");
      await expect.poll(() => composer(page).isEnabled()).toBe(true);
      await saveThemedScreenshots(page, "skipped");
    },
    FLOW_TIMEOUT,
  );
});

describe("booking's typed questions in the demo page", () => {
  it(
    "shows the spec's message beside an out-of-range number and sends nothing until it is fixed; free text settles",
    async () => {
      const page = await open("booking");
      const answers = recordRequests(page, "/agent/tool-call/answer");
      await sendMessage(page, "Book seats for the team dinner on Friday");
      const form = questionForm(page);
      await form.getByText("Question 1 of 3").waitFor();

      const seats = form.getByRole("spinbutton", { name: "How many seats?" });
      expect(await seats.inputValue()).toBe("2");
      await seats.fill("12");
      await page.keyboard.press("Enter");

      const seatsQuestion = form.locator('[data-question-id="seats"]');
      const error = seatsQuestion.getByRole("alert").filter({ hasText: "Enter a whole number from 1 to 9." });
      await error.waitFor();
      expect(await seats.getAttribute("aria-invalid")).toBe("true");
      const errorId = await error.getAttribute("id");
      expect(errorId).toBeTruthy();
      expect((await seats.getAttribute("aria-describedby"))?.split(" ")).toContain(errorId);
      expect(await form.getByText("Question 1 of 3").count()).toBe(1);
      await saveThemedScreenshots(page, "invalid");

      // Confirm by button too: still refused on the page.
      await form.getByRole("button", { name: "Next" }).click();
      await error.waitFor();
      expect(answers).toHaveLength(0);

      // Seats come whole: 2.5 is refused in the page with its own sentence.
      await seats.fill("2.5");
      await page.keyboard.press("Enter");
      await error.waitFor();
      expect(answers).toHaveLength(0);

      await seats.fill("3");
      await page.keyboard.press("Enter");
      await form.getByText("Question 2 of 3").waitFor();
      expect(await seatsQuestion.getByText("Enter a whole number from 1 to 9.").count()).toBe(0);

      // Free text: a required email (refused while malformed), then a note.
      const contact = form.getByRole("textbox", { name: "Who should we email?" });
      await contact.fill("team at example");
      await page.keyboard.press("Enter");
      await form.locator('[data-question-id="contact"] [role="alert"]').filter({ hasText: /\S/ }).waitFor();
      expect(answers).toHaveLength(0);
      await contact.fill("team@example.com");
      await page.keyboard.press("Enter");
      await form.getByText("Question 3 of 3").waitFor();
      const notes = form.getByRole("textbox", { name: "Anything else?" });
      await notes.fill("Window seats, please.");
      await page.keyboard.press("Control+Enter");

      await settledOutcome(page).getByText("Answered").waitFor();
      expect(postedBodies(answers)).toEqual([
        {
          toolCallId: expect.stringMatching(/^intake-/),
          answers: { seats: ["3"], contact: ["team@example.com"], notes: ["Window seats, please."] },
        },
      ]);
      expect(await settledRows(page)).toEqual([
        { id: "seats", shown: "3", defaulted: false, marked: false },
        { id: "contact", shown: "team@example.com", defaulted: false, marked: false },
        { id: "notes", shown: "Window seats, please.", defaulted: false, marked: false },
      ]);
      await expect.poll(() => assistantText(page)).toContain("How many seats? 3");
    },
    FLOW_TIMEOUT,
  );
});
