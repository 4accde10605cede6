import { createRequire } from "node:module";
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import {
  assistantText,
  composer,
  expectChecked,
  newPage,
  openDemo,
  questionForm,
  sendMessage,
  settledOutcome,
  waitForQuestions,
} from "./support/browser";
import { startDemoSession } from "./support/demo-session";

// The demo page must pass WCAG 2.2 A and AA in both themes, and work with the keyboard alone.
const FLOW_TIMEOUT = 90_000;
const WCAG_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"];
const AXE_SOURCE = createRequire(import.meta.url).resolve("axe-core/axe.min.js");

const demo = startDemoSession("prepick-e2e-a11y-");

const open = (agent: string, colorScheme: "light" | "dark" = "light"): Promise<Page> =>
  demo.open(agent, colorScheme);

/** One axe violation, short enough to read in a failure message. */
interface Violation {
  rule: string;
  impact: string | null | undefined;
  help: string;
  targets: string[];
}

/** Runs axe-core in the page over the whole document, with the WCAG 2.2 A and AA rules only. */
async function wcagViolations(page: Page): Promise<Violation[]> {
  if (!(await page.evaluate(() => "axe" in window))) await page.addScriptTag({ path: AXE_SOURCE });
  return page.evaluate(async (tags) => {
    const axe = (window as unknown as { axe: typeof import("axe-core") }).axe;
    const result = await axe.run(document, {
      runOnly: { type: "tag", values: tags },
      resultTypes: ["violations"],
    });
    return result.violations.map((violation) => ({
      rule: violation.id,
      impact: violation.impact,
      help: violation.help,
      targets: violation.nodes.map((node) => node.target.join(" ")),
    }));
  }, WCAG_TAGS);
}

/** Checks the page as it stands, labelled with the state it is in for the failure message. */
async function expectAccessible(page: Page, state: string): Promise<void> {
  expect({ state, violations: await wcagViolations(page) }).toEqual({ state, violations: [] });
}

describe("axe-core over the demo page (WCAG 2.2 A and AA)", () => {
  for (const scheme of ["light", "dark"] as const) {
    it(
      `finds no violation in any state of a turn, in the ${scheme} theme`,
      async () => {
        const page = await open("refactorer", scheme);
        await expect
          .poll(() => page.evaluate(() => document.documentElement.classList.contains("dark")))
          .toBe(scheme === "dark");
        await page.getByRole("radio", { name: /^booking/ }).waitFor();
        await expectAccessible(page, "empty conversation");

        await sendMessage(page, "Refactor the date helpers in utils.ts");
        await waitForQuestions(page);
        await expectAccessible(page, "pending intake");
        await page.keyboard.press("Enter");
        await questionForm(page).getByText("Question 2 of 3").waitFor();
        await expectAccessible(page, "pending multiple-choice question");
        await page.keyboard.press("Enter");
        await page.keyboard.press("Enter");
        await settledOutcome(page).getByText("Answered").waitFor();
        await expect.poll(() => composer(page).isEnabled()).toBe(true);
        await expectAccessible(page, "settled intake and reply");

        const booking = await open("booking", scheme);
        await sendMessage(booking, "Book seats for the team dinner on Friday");
        const seats = questionForm(booking).getByRole("spinbutton", { name: "How many seats?" });
        await seats.fill("12");
        await booking.keyboard.press("Enter");
        await questionForm(booking).getByText("Enter a number from 1 to 9.").waitFor();
        await expectAccessible(booking, "refused number");
        // In a field `s` is typing, so the person skips with the button; it asks before discarding.
        await questionForm(booking).getByRole("button", { name: "Skip: use the agent's picks" }).click();
        await questionForm(booking)
          .getByRole("group", { name: /You changed some answers/ })
          .waitFor();
        await expectAccessible(booking, "skip confirmation");
        await questionForm(booking).getByRole("button", { name: "Discard my changes and skip" }).click();
        await settledOutcome(booking)
          .getByText(/^Skipped/)
          .waitFor();
        await expectAccessible(booking, "skipped intake");

        const operator = await open("operator", scheme);
        await sendMessage(operator, "Purge the images cache");
        await operator
          .locator('[data-slot="chat-approval"]')
          .getByRole("button", { name: "Approve" })
          .waitFor();
        await expectAccessible(operator, "pending approval");
      },
      FLOW_TIMEOUT,
    );
  }
});

describe("the keyboard alone", () => {
  it(
    "walks a whole intake, from reaching the composer to the agent's reply, with no mouse event",
    async () => {
      const context = await demo.context();
      // Counts every pointer and mouse event the page receives, from the first script on.
      await context.addInitScript(() => {
        const seen: string[] = [];
        (window as unknown as { mouseEvents: string[] }).mouseEvents = seen;
        for (const type of [
          "pointerdown",
          "pointerup",
          "pointermove",
          "mousedown",
          "mouseup",
          "mousemove",
          "wheel",
        ])
          window.addEventListener(type, () => seen.push(type), { capture: true });
        window.addEventListener("click", (event) => event.detail > 0 && seen.push("click"), {
          capture: true,
        });
      });
      const page = await newPage(context);
      await openDemo(page, demo.url, "refactorer");
      await page.getByRole("radio", { name: /^refactorer/ }).waitFor();

      const focused = (selector: string) =>
        page.evaluate((sel) => document.activeElement?.matches(sel) ?? false, selector);
      /** Presses Tab until `selector` has the focus; a bounded number of times. */
      const tabTo = async (selector: string) => {
        for (let presses = 0; presses < 40; presses++) {
          if (await focused(selector)) return;
          await page.keyboard.press("Tab");
        }
        throw new Error(`Tab never reached ${selector}`);
      };

      await tabTo('[data-slot="chat-composer-input"]');
      await page.keyboard.type("Refactor the date helpers in utils.ts");
      await page.keyboard.press("Enter");

      const form = questionForm(page);
      await form.getByText("Question 1 of 3").waitFor();
      // The form takes the focus, on the pre-picked option, so its keys work at once.
      await expect
        .poll(() => focused('[data-slot="elicitation-root"] [role="radio"][data-value="module"]'))
        .toBe(true);
      // Held until the focus moves, as a person's key is: Radix moves it a task after keydown and
      // checks the radio only while an arrow key is down.
      await page.keyboard.down("ArrowUp");
      await expect.poll(() => focused('[role="radio"][data-value="file"]')).toBe(true);
      await page.keyboard.up("ArrowUp");
      await expectChecked(page.getByRole("radio", { name: "This file" }), true);
      await page.keyboard.press("Enter");

      await form.getByText("Question 2 of 3").waitFor();
      await expect.poll(() => focused('[role="checkbox"][data-value="unit"]')).toBe(true);
      await page.keyboard.press("ArrowDown");
      expect(await focused('[role="checkbox"][data-value="e2e"]')).toBe(true);
      await page.keyboard.press(" ");
      await expectChecked(page.getByRole("checkbox", { name: "End to end" }), true);
      await page.keyboard.press("Enter");

      await form.getByText("Question 3 of 3").waitFor();
      await tabTo('[data-slot="elicitation-confirm"]');
      await page.keyboard.press("Enter");

      const settled = settledOutcome(page);
      await settled.getByText("Answered").waitFor();
      expect(await settled.locator('[data-question-id="scope"] dd').textContent()).toBe("This file");
      expect(await settled.locator('[data-question-id="tests"] dd').textContent()).toBe("Unit, End to end");
      await expect
        .poll(() => assistantText(page))
        .toContain("Which tests should I touch? → Unit, End to end");
      await expect.poll(() => composer(page).isEnabled()).toBe(true);
      await tabTo('[data-slot="chat-composer-input"]');

      expect(await page.evaluate(() => (window as unknown as { mouseEvents: string[] }).mouseEvents)).toEqual(
        [],
      );
    },
    FLOW_TIMEOUT,
  );
});
