import type { Locator, Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { wcagViolations } from "./support/axe";
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
import { type ColourProperty, measureContrast } from "./support/contrast";
import { startDemoSession } from "./support/demo-session";

// The demo page must pass WCAG 2.2 A and AA in both themes, and work with the keyboard alone.
const FLOW_TIMEOUT = 90_000;

const demo = startDemoSession("prepick-e2e-a11y-");

const open = (agent: string, colorScheme: "light" | "dark" = "light"): Promise<Page> =>
  demo.open(agent, colorScheme);

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
        await questionForm(booking).getByText("Enter a whole number from 1 to 9.").waitFor();
        await expectAccessible(booking, "refused number");
        // In a field `s` is typing, so the person skips with the button; it asks before discarding.
        await questionForm(booking).getByRole("button", { name: "Skip: let the agent decide" }).click();
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
      // The form takes the focus, on the question's group (a screen reader says its prompt first),
      // and its keys work at once: the arrows start from the pre-picked option.
      await expect
        .poll(() => focused('[data-slot="elicitation-root"] fieldset[data-question-id="scope"]'))
        .toBe(true);
      // Held until the focus moves, as a person's key is: Radix moves it a task after keydown and
      // checks the radio only while an arrow key is down.
      await page.keyboard.down("ArrowUp");
      await expect.poll(() => focused('[role="radio"][data-value="file"]')).toBe(true);
      await page.keyboard.up("ArrowUp");
      await expectChecked(page.getByRole("radio", { name: "This file" }), true);
      await page.keyboard.press("Enter");

      await form.getByText("Question 2 of 3").waitFor();
      await expect.poll(() => focused('fieldset[data-question-id="tests"]')).toBe(true);
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
      await expect.poll(() => assistantText(page)).toContain("Which tests should I touch? Unit, End to end");
      await expect.poll(() => composer(page).isEnabled()).toBe(true);
      await tabTo('[data-slot="chat-composer-input"]');

      expect(await page.evaluate(() => (window as unknown as { mouseEvents: string[] }).mouseEvents)).toEqual(
        [],
      );
    },
    FLOW_TIMEOUT,
  );
});

/** Fails naming what was measured unless its contrast is at least `minimum`. */
async function expectContrast(
  locator: Locator,
  property: ColourProperty,
  minimum: number,
  what: string,
): Promise<void> {
  const measure = await measureContrast(locator, property);
  expect({ what, ...measure, enough: measure.ratio >= minimum }).toEqual({ what, ...measure, enough: true });
}

describe("contrast measured from computed styles (WCAG 1.4.3, 1.4.11, 2.4.7)", () => {
  for (const scheme of ["light", "dark"] as const) {
    it(
      `controls, the picked row and the focus indicator reach 3:1 and text 4.5:1, in the ${scheme} theme`,
      async () => {
        const page = await open("refactorer", scheme);
        await sendMessage(page, "Refactor the date helpers in utils.ts");
        await waitForQuestions(page);
        const form = questionForm(page);

        await expectContrast(
          form.getByRole("radio", { name: "This file" }),
          "border-top-color",
          3,
          "unchecked radio",
        );
        await expectContrast(
          form.locator('[data-question-id="scope"] [data-slot="elicitation-option"][data-state="checked"]'),
          "border-top-color",
          3,
          "the picked row's outline",
        );
        // The form took the focus after a key press, on the question's group, which shows the
        // indicator; Tab goes on to the pre-picked radio, which shows it too.
        const group = form.getByRole("group", { name: "How much should I cover?" });
        expect(await group.evaluate((element) => element.matches(":focus-visible"))).toBe(true);
        await expectContrast(group, "outline-color", 3, "the focus indicator on the question");
        await page.keyboard.press("Tab");
        const focused = form.getByRole("radio", { name: "The whole module" });
        expect(await focused.evaluate((element) => element.matches(":focus-visible"))).toBe(true);
        const outline = await focused.evaluate((element) => {
          const style = getComputedStyle(element);
          return { style: style.outlineStyle, width: Number.parseFloat(style.outlineWidth) };
        });
        expect(outline.style).not.toBe("none");
        expect(outline.width).toBeGreaterThanOrEqual(2);
        await expectContrast(focused, "outline-color", 3, "the focus indicator");

        await expectContrast(
          form.getByText("How much should I cover?", { exact: true }),
          "color",
          4.5,
          "prompt",
        );
        await expectContrast(form.getByText("Question 1 of 3"), "color", 4.5, "progress");
        await expectContrast(
          form.locator('[data-question-id="scope"] [data-slot="elicitation-pre-picked"]'),
          "color",
          4.5,
          "pre-picked mark",
        );

        await page.keyboard.press("Enter");
        await form.getByText("Question 2 of 3").waitFor();
        await expectContrast(
          form.getByRole("checkbox", { name: "End to end" }),
          "border-top-color",
          3,
          "unchecked checkbox",
        );
        // Each checkbox is a tab stop: Tab past them to the button.
        const button = form.getByRole("button", { name: "Next" });
        const onButton = () => button.evaluate((element) => element === document.activeElement);
        for (let presses = 0; presses < 8 && !(await onButton()); presses++) await page.keyboard.press("Tab");
        expect(await onButton()).toBe(true);
        const buttonOutline = await button.evaluate((element) => getComputedStyle(element).outlineStyle);
        expect(buttonOutline).not.toBe("none");
        await expectContrast(button, "outline-color", 3, "the focus indicator on a button");

        // The agent cards keep their text legible under the pointer.
        const card = page.locator('[data-slot="agent-picker-option"]').filter({ hasText: "booking" });
        await card.hover();
        for (const line of await card.locator("span.text-muted-foreground, span > span").all()) {
          await expectContrast(line, "color", 4.5, "a hovered agent card's text");
        }
        await expectAccessible(page, "hovered agent card");
      },
      FLOW_TIMEOUT,
    );
  }
});

describe("text fields' borders measured from computed styles (WCAG 1.4.11)", () => {
  for (const scheme of ["light", "dark"] as const) {
    it(
      `a number field, an email field and a textarea show a border of 3:1, in the ${scheme} theme`,
      async () => {
        const page = await open("booking", scheme);
        await sendMessage(page, "Book seats for the team dinner on Friday");
        await waitForQuestions(page);
        const form = questionForm(page);
        /** Measures a field's resting border: the focus, which draws the ring's border, is taken off. */
        const expectBorder = async (field: Locator, what: string) => {
          await field.evaluate((element) => (element as HTMLElement).blur());
          await expectContrast(field, "border-top-color", 3, what);
        };
        const seats = form.getByRole("spinbutton", { name: "How many seats?" });
        await expectBorder(seats, "number field");
        await seats.press("Enter");
        await form.getByText("Question 2 of 3").waitFor();
        const contact = form.getByRole("textbox", { name: "Who should we email?" });
        await expectBorder(contact, "email field");
        await contact.fill("sam@example.com");
        await contact.press("Enter");
        await form.getByText("Question 3 of 3").waitFor();
        await expectBorder(form.getByRole("textbox", { name: "Anything else?" }), "textarea");
      },
      FLOW_TIMEOUT,
    );
  }
});

/** How many roles of an aria snapshot take `name` as their accessible name. */
function namedBy(tree: string, name: string): number {
  return tree.split("\n").filter((line) => line.trimStart().startsWith("- ") && line.includes(`"${name}"`))
    .length;
}

/** The hints that show: one that does not apply where the focus is stays, invisible (`data-hidden`). */
function shownHints(hints: Locator): Promise<string> {
  return hints.evaluate((row) =>
    [...row.children]
      .filter((hint) => !hint.hasAttribute("data-hidden"))
      .map((hint) => hint.textContent)
      .join(" "),
  );
}

describe("what a screen reader hears of a question", () => {
  it(
    "names each question once, leaves the decorative key hints out, and the hints say what the keys do where the focus is",
    async () => {
      const page = await open("refactorer");
      await sendMessage(page, "Refactor the date helpers in utils.ts");
      await waitForQuestions(page);
      const form = questionForm(page);
      const tree = await form.ariaSnapshot();
      // One role carries the prompt as its name (the legend's own text is the same name, not a second one).
      expect(namedBy(tree, "How much should I cover?")).toBe(1);
      expect(tree).not.toMatch(/skip: use|⏎/);
      const hints = form.locator('[data-slot="elicitation-hints"]');
      expect(await hints.getAttribute("aria-hidden")).toBe("true");
      // On an option: Enter goes to the next question, as the button says, and `s` skips.
      expect(await shownHints(hints)).toContain("next question");
      expect(await form.getByRole("button", { name: "Next" }).count()).toBe(1);
      expect(await shownHints(hints)).toContain("skip");

      const booking = await open("booking");
      await sendMessage(booking, "Book seats for the team dinner on Friday");
      const bookingForm = questionForm(booking);
      await waitForQuestions(booking);
      const bookingHints = bookingForm.locator('[data-slot="elicitation-hints"]');
      expect(namedBy(await bookingForm.ariaSnapshot(), "How many seats?")).toBe(1);
      // In a field, `s` types a letter: its hint goes (invisible, so the row keeps its height).
      expect(await shownHints(bookingHints)).toContain("next question");
      expect(await shownHints(bookingHints)).not.toContain("skip");
      await booking.keyboard.press("Enter");
      await bookingForm.getByText("Question 2 of 3").waitFor();
      await bookingForm.getByRole("textbox", { name: "Who should we email?" }).fill("team@example.com");
      await booking.keyboard.press("Enter");
      await bookingForm.getByText("Question 3 of 3").waitFor();
      const notes = bookingForm.getByRole("textbox", { name: "Anything else?" });
      await notes.focus();
      // In a textarea Enter adds a line; the way out is Ctrl+Enter, and it confirms, as the button says.
      await expect.poll(() => shownHints(bookingHints)).toContain("new line");
      expect(await shownHints(bookingHints)).toMatch(/(Ctrl|⌘)\s*⏎\s*confirm/);
      expect(await bookingForm.getByRole("button", { name: "Confirm" }).count()).toBe(1);
      await bookingForm.getByRole("button", { name: "Confirm" }).focus();
      // On a button, Enter presses that button: no hint claims otherwise (the row keeps its height).
      await expect.poll(() => shownHints(bookingHints)).not.toContain("⏎");
    },
    FLOW_TIMEOUT,
  );
});
