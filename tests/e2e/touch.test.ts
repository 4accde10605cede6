import type { Locator, Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { composer, newPage, questionForm, settledOutcome } from "./support/browser";
import { startDemoSession } from "./support/demo-session";

// The question form under a thumb: Chromium emulating a touch screen (coarse pointer, touch events),
// every action a tap on the screen at the element's centre, never a scripted click().
const FLOW_TIMEOUT = 90_000;

const PHONES = [
  { width: 390, height: 844 },
  { width: 320, height: 640 },
] as const;

const demo = startDemoSession("prepick-e2e-touch-");

/** A touch phone of `size` on the demo's `agent`. */
async function openPhone(size: { width: number; height: number }, agent: string): Promise<Page> {
  const page = await newPage(await demo.context("light", { viewport: size, hasTouch: true, isMobile: true }));
  await page.goto(new URL(`/?agent=${agent}`, demo.url).href);
  await composer(page).waitFor();
  return page;
}

/** Taps the centre of `locator` with a finger: touchstart and touchend, as a phone sends them. */
async function tap(page: Page, locator: Locator): Promise<void> {
  await locator.scrollIntoViewIfNeeded();
  const box = await locator.boundingBox();
  if (!box) throw new Error(`${locator} has no box to tap`);
  await page.touchscreen.tap(box.x + box.width / 2, box.y + box.height / 2);
}

/** The page's content width beyond its viewport's, in px (0: nothing scrolls sideways). */
function horizontalOverflow(page: Page): Promise<number> {
  return page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
}

describe("the question form under a thumb", () => {
  for (const size of PHONES) {
    it(
      `at ${size.width}×${size.height} takes a three-question intake in three taps, each row 44 px and picked anywhere`,
      async () => {
        const page = await openPhone(size, "refactorer");
        expect(await page.evaluate(() => matchMedia("(pointer: coarse)").matches)).toBe(true);
        expect(await horizontalOverflow(page)).toBe(0);
        // Nothing in the header lies over anything else.
        const overlaps = await page.evaluate(() => {
          const header = document.querySelector("header");
          const parts = [...(header?.querySelectorAll("p, button, a") ?? [])].filter(
            (element) => (element as HTMLElement).offsetParent !== null,
          );
          const boxes = parts.map((element) => element.getBoundingClientRect());
          const found: string[] = [];
          for (const [i, a] of boxes.entries()) {
            for (const [j, b] of boxes.entries()) {
              const nested = parts[i]?.contains(parts[j] as Node) || parts[j]?.contains(parts[i] as Node);
              if (j <= i || nested) continue;
              const apart = a.right - 0.5 <= b.left || b.right - 0.5 <= a.left;
              const stacked = a.bottom - 0.5 <= b.top || b.bottom - 0.5 <= a.top;
              if (!apart && !stacked) found.push(`${parts[i]?.textContent} / ${parts[j]?.textContent}`);
            }
          }
          return found;
        });
        expect(overlaps).toEqual([]);

        await tap(page, page.getByRole("button", { name: "Refactor the date helpers in utils.ts" }));
        const form = questionForm(page);
        await form.getByText("Question 1 of 3").waitFor();
        // No key caps or keyboard hints on a touch screen.
        expect(await form.locator('[data-slot="elicitation-hotkey"]').first().isVisible()).toBe(false);
        expect(await form.locator('[data-slot="elicitation-hints"]').isVisible()).toBe(false);

        // Every option row is at least 44 px tall, and a tap on its far edge, away from the radio and
        // the label, picks it.
        const rows = form.locator('[data-slot="elicitation-option"]:visible');
        for (const row of await rows.all()) {
          expect((await row.boundingBox())?.height ?? 0).toBeGreaterThanOrEqual(44);
        }
        const fileRow = rows.filter({ hasText: "This file" });
        const box = await fileRow.boundingBox();
        if (!box) throw new Error("no row");
        await page.touchscreen.tap(box.x + box.width - 4, box.y + box.height - 4);
        await expect.poll(() => form.getByRole("radio", { name: "This file" }).isChecked()).toBe(true);
        await tap(page, fileRow.getByText("This file"));
        expect(await form.getByRole("radio", { name: "This file" }).isChecked()).toBe(true);
        // Back to the agent's pick, so the three taps below confirm the agent's picks.
        await tap(page, rows.filter({ hasText: "The whole module" }));
        await expect.poll(() => form.getByRole("radio", { name: "The whole module" }).isChecked()).toBe(true);

        // Three questions, three taps: Next, Next, Confirm. A button that moved between the finger
        // going down and coming up would take a second tap.
        await tap(page, form.getByRole("button", { name: "Next" }));
        await form.getByText("Question 2 of 3").waitFor({ timeout: 5_000 });
        await tap(page, form.getByRole("button", { name: "Next" }));
        await form.getByText("Question 3 of 3").waitFor({ timeout: 5_000 });
        await tap(page, form.getByRole("button", { name: "Confirm" }));
        await settledOutcome(page).getByText("Answered").waitFor();
        const answers = await settledOutcome(page).locator("dd").allInnerTexts();
        expect(answers[0]).toContain("The whole module");
        expect(await horizontalOverflow(page)).toBe(0);
      },
      FLOW_TIMEOUT,
    );
  }
});
