import type { Locator, Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { wcagViolations } from "./support/axe";
import {
  assistantText,
  composer,
  newPage,
  openDemo,
  questionForm,
  sendMessage,
  settledOutcome,
  waitForQuestions,
} from "./support/browser";
import { startDemoSession } from "./support/demo-session";

// The demo page on a phone: the conversation first, the agents a tap away, nothing on top of anything.
const FLOW_TIMEOUT = 90_000;

/** A 390×844 phone, and the 320 px width WCAG's reflow criterion names. */
const PHONES = [
  { width: 390, height: 844 },
  { width: 320, height: 568 },
] as const;

const demo = startDemoSession("prepick-e2e-phone-");

/** axe-core's WCAG 2.2 A and AA violations on the page as it stands, by rule and target. */
async function axeViolations(page: Page): Promise<string[]> {
  return (await wcagViolations(page)).flatMap((violation) =>
    violation.targets.map((target) => `${violation.rule}: ${target}`),
  );
}

/** A page at `size` on `agent`'s conversation. */
async function openAt(size: { width: number; height: number }, agent: string): Promise<Page> {
  const page = await newPage(await demo.context());
  await page.setViewportSize(size);
  await openDemo(page, demo.url, agent);
  return page;
}

/**
 * Fails unless `locator` lies wholly inside the viewport and is the topmost element at its centre
 * and at its corners (inset a pixel, and past a rounded corner's curve): a person can see it and
 * reach it.
 */
async function expectInViewAndUncovered(locator: Locator, what: string): Promise<void> {
  await locator.waitFor();
  const problem = await locator.evaluate((element) => {
    const rect = element.getBoundingClientRect();
    if (rect.width === 0 || rect.height === 0) return "it has no size";
    if (rect.top < 0 || rect.left < 0 || rect.bottom > innerHeight || rect.right > innerWidth) {
      return `it is outside the ${innerWidth}×${innerHeight} viewport at ${JSON.stringify(rect)}`;
    }
    // Inside its rounded corners: a corner's own pixel is outside a pill, and hits what is behind.
    const radius = Math.min(
      Number.parseFloat(getComputedStyle(element).borderTopLeftRadius) || 0,
      rect.height / 2,
    );
    const inset = 1 + Math.ceil(radius * (1 - Math.SQRT1_2));
    const points = [
      [rect.left + rect.width / 2, rect.top + rect.height / 2],
      [rect.left + inset, rect.top + inset],
      [rect.right - inset, rect.top + inset],
      [rect.left + inset, rect.bottom - inset],
      [rect.right - inset, rect.bottom - inset],
    ] as const;
    for (const [x, y] of points) {
      const hit = document.elementFromPoint(x, y);
      if (hit !== element && !element.contains(hit) && !hit?.contains(element)) {
        return `at (${Math.round(x)}, ${Math.round(y)}) it is covered by ${hit?.outerHTML.slice(0, 120)}`;
      }
    }
    return undefined;
  });
  expect({ what, problem }).toEqual({ what, problem: undefined });
}

/** The page's content width beyond its viewport's, in px (0: nothing scrolls sideways). */
function horizontalOverflow(page: Page): Promise<number> {
  return page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
}

/** Whether the two boxes share any area. */
function overlaps(a: DOMRect | null, b: DOMRect | null): boolean {
  if (!a || !b) return false;
  return a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
}

describe("the demo page on a phone", () => {
  for (const size of PHONES) {
    it(
      `at ${size.width}×${size.height} shows the conversation first, the agents in a dialog, and the questions in view`,
      async () => {
        const page = await openAt(size, "refactorer");
        expect(await horizontalOverflow(page)).toBe(0);
        // The agent list is not laid over the conversation: it waits behind a button.
        expect(await page.getByRole("radio", { name: /^booking/ }).isVisible()).toBe(false);
        const suggestion = page.getByRole("button", { name: "Refactor the date helpers in utils.ts" });
        await expectInViewAndUncovered(suggestion, "the suggested first message");
        await expectInViewAndUncovered(composer(page), "the message box");

        const agents = page.getByRole("button", { name: /^Agent: refactorer/ });
        await expectInViewAndUncovered(agents, "the agents button");
        await agents.click();
        const dialog = page.getByRole("dialog", { name: "Demo agents" });
        await dialog.waitFor();
        expect(await axeViolations(page)).toEqual([]);
        await expectInViewAndUncovered(dialog.getByRole("radio", { name: /^booking/ }), "an agent's radio");
        await page.keyboard.press("Escape");
        await dialog.waitFor({ state: "hidden" });
        expect(await agents.evaluate((element) => element === document.activeElement)).toBe(true);

        await suggestion.click();
        await waitForQuestions(page);
        const form = questionForm(page);
        await expectInViewAndUncovered(
          form.getByText("How much should I cover?", { exact: true }),
          "the first question's prompt",
        );
        await expectInViewAndUncovered(form.getByRole("radio", { name: "The whole module" }), "the pre-pick");
        await expectInViewAndUncovered(form.getByRole("button", { name: "Next" }), "the Next button");
        expect(await horizontalOverflow(page)).toBe(0);
        expect(await axeViolations(page)).toEqual([]);

        await page.keyboard.press("Enter");
        await page.keyboard.press("Enter");
        await page.keyboard.press("Enter");
        await settledOutcome(page).getByText("Answered").waitFor();
        await expect.poll(() => composer(page).isEnabled()).toBe(true);

        // Scrolled up to read, the way back is in view and clear of the header and the message
        // box (shadcn's scroller lays it over the conversation's foot). A second message gives
        // the conversation more than a screen to scroll.
        const viewport = page.locator('[data-slot="message-scroller-viewport"]');
        await sendMessage(page, "Now the number helpers, please");
        await expect.poll(() => page.locator('[data-role="user"]').count()).toBe(2);
        // The reply must have landed, whole and rendered, before the person scrolls up: while every
        // row fits the screen the scroller is at the end, and it follows what comes next, taking
        // the reader back down. `data-status` is no proof of it: it was seen reading `ready` with
        // the message shown and its reply not yet there.
        await expect
          .poll(() => assistantText(page))
          .toContain('Here is my answer to "Now the number helpers, please"');
        await expect
          .poll(() =>
            page.locator('[data-slot="chat-message-caret"], [data-slot="chat-message-plain"]').count(),
          )
          .toBe(0);
        await expect
          .poll(() => page.locator('[data-slot="agent-chat"]').getAttribute("data-status"))
          .toBe("ready");
        const scrollable = await viewport.evaluate(
          (element) => element.scrollHeight > element.clientHeight + 16,
        );
        expect(scrollable || size.height > 700).toBe(true);
        if (scrollable) {
          // The person scrolls up with the wheel: an intent the scroller yields to.
          await viewport.evaluate((element) => {
            element.dispatchEvent(new WheelEvent("wheel", { deltaY: -5000, bubbles: true }));
            element.scrollTop = 0;
          });
          const jump = page.getByRole("button", { name: "Jump to latest" });
          await expect.poll(() => jump.getAttribute("data-active")).toBe("true");
          await expectInViewAndUncovered(jump, "Jump to latest");
          const boxes = await page.evaluate(() => {
            const box = (selector: string) =>
              document.querySelector(selector)?.getBoundingClientRect() ?? null;
            return {
              jump: box('[data-slot="message-scroller-button"]'),
              footer: box('[data-slot="agent-chat-footer"]'),
              header: box('[data-slot="agent-chat-header"]'),
            };
          });
          expect(overlaps(boxes.jump, boxes.footer)).toBe(false);
          expect(overlaps(boxes.jump, boxes.header)).toBe(false);
          await jump.click();
          // Back at the end there is nothing to jump to: the button goes inert, out of the tab order.
          await expect.poll(() => jump.getAttribute("data-active")).toBe("false");
        }
        await expectInViewAndUncovered(composer(page), "the message box after the reply");
      },
      FLOW_TIMEOUT,
    );
  }
});

describe("a 300-character word", () => {
  const word = "x".repeat(300);

  for (const size of [{ width: 900, height: 700 }, PHONES[1]]) {
    it(
      `wraps wherever it appears, with no sideways scrolling, at ${size.width} px`,
      async () => {
        const page = await openAt(size, "planner");
        await sendMessage(page, `Plan the migration to the new billing API ${word}`);
        await waitForQuestions(page, "Question 1 of 2");
        const form = questionForm(page);
        await form.getByRole("textbox", { name: "Or write your own answer" }).fill(word);
        expect(await horizontalOverflow(page)).toBe(0);
        await form.getByRole("button", { name: "Next" }).click();
        await form.getByText("Question 2 of 2").waitFor();
        await page.keyboard.press("Enter");

        const settled = settledOutcome(page);
        await settled.getByText("Answered").waitFor();
        await settled.getByText(word).waitFor();
        expect(await horizontalOverflow(page)).toBe(0);
        // Nothing inside the conversation is wider than its column either.
        const widest = await page.evaluate(() => {
          const column = document.querySelector('[data-slot="message-scroller-content"]');
          if (!column) return undefined;
          const right = column.getBoundingClientRect().right;
          return Math.max(
            ...[...column.querySelectorAll("*")].map(
              (element) => element.getBoundingClientRect().right - right,
            ),
          );
        });
        expect(widest).toBeLessThanOrEqual(1);
        const viewport = page.locator('[data-slot="message-scroller-viewport"]');
        expect(await viewport.evaluate((element) => element.scrollWidth - element.clientWidth)).toBe(0);
      },
      FLOW_TIMEOUT,
    );
  }
});
