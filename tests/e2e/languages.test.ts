import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { newPage, questionForm } from "./support/browser";
import { startDemoSession } from "./support/demo-session";

// The demo page in German and in Arabic (right to left): every word a person reads around the
// agent's own text is in the page's language, and the agent's English keeps its own direction.
const FLOW_TIMEOUT = 90_000;

const demo = startDemoSession("prepick-e2e-languages-");

/** English words of the page and the chat that must not be left in another language. */
const ENGLISH = [
  "Question 1 of 3",
  "Next",
  "Confirm",
  "Skip: use the agent's picks",
  "Skip: let the agent decide",
  "pre-picked",
  "Enter a whole number",
  "Waiting for your answer",
  "Answer the agent above",
  "Send a message",
  "Waiting for you",
  "Nothing waits",
  "questions from",
  "Conversation with",
  "Open conversation",
  "Conversations",
  "No conversations",
  "Inbox",
  "Dark mode",
  "Demo agents",
  "New conversation",
  "Intake:",
  "Asks ",
];

/** What the page shows: its rendered text, its fields' placeholders and its controls' names. */
function shownText(page: Page): Promise<string> {
  return page.evaluate(() => {
    const named = [...document.querySelectorAll("[placeholder], [aria-label]")]
      .filter((element) => (element as HTMLElement).offsetParent !== null)
      .map(
        (element) =>
          `${element.getAttribute("placeholder") ?? ""} ${element.getAttribute("aria-label") ?? ""}`,
      );
    // biome-ignore lint/performance/useDomNodeTextContent: what is rendered, not what the DOM holds.
    return `${document.body.innerText}\n${named.join("\n")}`;
  });
}

interface Case {
  lang: "de" | "ar";
  dir: "ltr" | "rtl";
  /** Words that must show, in the page's language. */
  expected: string[];
  /** How the inbox writes the day a call was asked. */
  date: RegExp;
}

const CASES: Case[] = [
  {
    lang: "de",
    dir: "ltr",
    expected: [
      "Frage 1 von 3",
      "Weiter",
      // The contact question has no pick of the agent's, so Skip says the agent decides.
      "Überspringen: Der Agent entscheidet",
      "Geben Sie eine ganze Zahl von 1 bis 9 ein.",
      "Wartet auf Ihre Antwort",
      "Wartet auf Sie",
      "3 Fragen von booking",
      "Unterhaltungen",
      "Dunkles Design",
    ],
    date: /\d{2}\.\d{2}\.\d{4}/,
  },
  {
    lang: "ar",
    dir: "rtl",
    expected: [
      "السؤال ١ من ٣",
      "التالي",
      "تخطٍّ: دع الوكيل يقرر",
      "أدخل عددًا صحيحًا من ١ إلى ٩.",
      "في انتظار إجابتك",
      "في انتظارك",
      "المحادثات",
      "الوضع الداكن",
    ],
    date: /[٠-٩]{4}/,
  },
];

describe("the demo page in another language", () => {
  for (const { lang, dir, expected, date } of CASES) {
    it(
      `?lang=${lang}: the booking intake with an error, the inbox and the conversations read in it; English from the agent keeps its direction`,
      async () => {
        const page = await newPage(await demo.context("light", { viewport: { width: 1280, height: 860 } }));
        await page.goto(new URL(`/?agent=booking&lang=${lang}`, demo.url).href);
        const box = page.locator('[data-slot="chat-composer-input"]');
        await box.waitFor();
        expect(
          await page.evaluate(() => [document.documentElement.lang, document.documentElement.dir]),
        ).toEqual([lang, dir]);
        await box.fill("Book seats for the team dinner on Friday");
        await box.press("Enter");
        const form = questionForm(page);
        const seats = form.getByRole("spinbutton");
        await seats.waitFor();
        await seats.fill("12");
        await page.keyboard.press("Enter");
        await form.locator('[data-slot="elicitation-error"]').filter({ hasText: /\S/ }).waitFor();
        // The thread is listed and its questions wait in the inbox.
        await page.locator('[data-slot="agent-inbox-call"]').first().waitFor();
        await page.locator('[data-slot="chat-thread-list-item"]').first().waitFor();

        // As rendered: the progress line is upper case on screen, so compare without case.
        const text = await shownText(page);
        for (const words of expected) expect(text.toLowerCase(), words).toContain(words.toLowerCase());
        for (const words of ENGLISH) expect(text.includes(words), `"${words}" is still English`).toBe(false);
        expect(await page.locator('[data-slot="agent-inbox-call"] time').first().textContent()).toMatch(date);

        // The agent's English prompt runs left to right even in a right-to-left page, its "?" at
        // its end; the number field, and an email typed into it, read left to right too.
        const legend = form.locator('[data-slot="elicitation-legend"]').first();
        expect(await legend.evaluate((element) => getComputedStyle(element).direction)).toBe("ltr");
        expect(await seats.evaluate((element) => getComputedStyle(element).direction)).toBe("ltr");
        if (dir === "rtl") {
          expect(await form.evaluate((element) => getComputedStyle(element).direction)).toBe("rtl");
          // A label of the page's own language in the same form runs right to left.
          const next = form.getByRole("button", { name: "التالي" });
          expect(await next.evaluate((element) => getComputedStyle(element).direction)).toBe("rtl");
        }
      },
      FLOW_TIMEOUT,
    );
  }

  it(
    "?lang=ar: an email typed into the contact question stays as typed, left to right",
    async () => {
      const page = await newPage(await demo.context("light", { viewport: { width: 390, height: 844 } }));
      await page.goto(new URL("/?agent=booking&lang=ar", demo.url).href);
      const box = page.locator('[data-slot="chat-composer-input"]');
      await box.fill("Book seats for the team dinner on Friday");
      await box.press("Enter");
      const form = questionForm(page);
      await form.getByRole("spinbutton").waitFor();
      await page.keyboard.press("Enter");
      const email = form.locator('input[type="email"]');
      await email.waitFor();
      await email.fill("ada@");
      expect(await email.evaluate((element) => getComputedStyle(element).direction)).toBe("ltr");
      expect(await email.inputValue()).toBe("ada@");
    },
    FLOW_TIMEOUT,
  );
});
