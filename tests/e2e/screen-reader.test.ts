import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { questionForm, sendMessage, settledOutcome } from "./support/browser";
import { startDemoSession } from "./support/demo-session";

const FLOW_TIMEOUT = 120_000;
const demo = startDemoSession("prepick-e2e-sr-");

/** The virtual screen reader's browser build, served to the page under the demo's own origin. */
const READER_SOURCE = readFileSync(
  createRequire(import.meta.url).resolve("@guidepup/virtual-screen-reader/browser.js"),
  "utf8",
);
const READER_PATH = "/__virtual-screen-reader.js";

/**
 * Starts Guidepup's virtual screen reader over the page's body: from then on it says what a
 * screen reader says as the focus moves and as live regions change, and reads on when told to.
 */
async function startReader(page: Page): Promise<void> {
  await page.route(`**${READER_PATH}`, (route) =>
    route.fulfill({ contentType: "text/javascript", body: READER_SOURCE }),
  );
  // A string, so the test's own bundler leaves the page's dynamic import alone.
  await page.evaluate(`(async () => {
    const { virtual } = await import(${JSON.stringify(READER_PATH)});
    window.reader = virtual;
    await virtual.start({ container: document.body });
  })()`);
}

/**
 * Everything the reader said since it started or was last cleared, in order. A live region
 * emptied (an error mended) is logged as its politeness alone: a screen reader says nothing then.
 */
async function heard(page: Page): Promise<string[]> {
  const phrases = (await page.evaluate("window.reader.spokenPhraseLog()")) as string[];
  return phrases.filter((phrase) => !/^(polite|assertive): $/.test(phrase));
}

/** Forgets what the reader said so far, so the next step's phrases stand alone. */
async function clearHeard(page: Page): Promise<void> {
  await page.evaluate("window.reader.clearSpokenPhraseLog()");
}

/** Waits until the reader has said a phrase that `said` matches; returns everything it said. */
async function hearUntil(page: Page, said: RegExp): Promise<string[]> {
  await expect.poll(async () => (await heard(page)).some((phrase) => said.test(phrase))).toBe(true);
  return heard(page);
}

/**
 * Reads on from where the reader is (the focus), as a person does with the reader's "next" key,
 * until it leaves the group it is in; returns what it said on the way.
 */
async function readThroughGroup(page: Page): Promise<string[]> {
  await clearHeard(page);
  await page.evaluate(`(async () => {
    for (let step = 0; step < 40; step++) {
      await window.reader.next();
      if ((await window.reader.lastSpokenPhrase()).startsWith("end of group")) return;
    }
  })()`);
  return heard(page);
}

/** How many of `phrases` contain `text`. */
function times(phrases: readonly string[], text: string): number {
  return phrases.filter((phrase) => phrase.includes(text)).length;
}

/** What live regions said (the reader prefixes them with their politeness). */
function liveOnly(phrases: readonly string[]): string[] {
  return phrases.filter((phrase) => /^(polite|assertive): /.test(phrase));
}

/** The form's controls as the reader says them: each option or field with its state. */
function controls(phrases: readonly string[]): string[] {
  return phrases.filter(
    (phrase) =>
      /^(radio|checkbox|button|spinbutton|textbox), /.test(phrase) && !phrase.startsWith("textbox, Message"),
  );
}

describe("what a screen reader hears (Guidepup's virtual screen reader, in Chromium)", () => {
  it(
    "a three-question intake: each prompt with its step, once, as its question takes the focus; then its options and pre-picks in order",
    async () => {
      const page = await demo.open("refactorer");
      await startReader(page);
      await sendMessage(page, "Refactor the date helpers in utils.ts");

      // On arrival the first question's group takes the focus: its prompt, the set's preamble and
      // the step are said together, before any option, and the form is not read out as log content.
      const arrival = await hearUntil(page, /^group, How much should I cover\?/);
      const first = arrival.findIndex((phrase) => phrase.startsWith("group, How much should I cover?"));
      expect(arrival[first]).toBe(
        "group, How much should I cover?, Three questions before I start. I have pre-picked what I would choose, so confirming is enough. Question 1 of 3",
      );
      expect(controls(arrival.slice(0, first))).toEqual([]);
      expect(times(arrival, "Question 1 of 3")).toBe(1);
      // The header's count of waiting calls is one live region: said once.
      expect(times(arrival, "1 call waits for you")).toBe(1);

      // Reading on: each option once, in order, with its state, and the pre-pick said on its own.
      const one = await readThroughGroup(page);
      expect(controls(one)).toEqual([
        expect.stringMatching(/^radio, This file, .*not checked, key shortcuts a, position 1, set size 3$/),
        expect.stringMatching(/^radio, The whole module, .*pre-picked, checked, key shortcuts b, position 2/),
        expect.stringMatching(
          /^radio, Everything that imports it, .*not checked, key shortcuts c, position 3/,
        ),
      ]);
      // The pre-pick: said with the option, then its visible mark read on its own.
      expect(controls(one).filter((phrase) => phrase.includes("pre-picked"))).toHaveLength(1);
      expect(one.filter((phrase) => phrase === "pre-picked")).toHaveLength(1);

      // Enter (the focus is still on the first question): the second question takes the focus,
      // its prompt and step said once; the Back button that appears is not read out.
      await clearHeard(page);
      await page.keyboard.press("Enter");
      const second = await hearUntil(page, /^group, Which tests should I touch\?/);
      expect(second.filter((phrase) => !phrase.startsWith("polite: "))).toEqual([
        "group, Which tests should I touch?, Question 2 of 3",
      ]);
      expect(times(second, "Question 2 of 3")).toBe(1);
      expect(times(second, "Back")).toBe(0);
      const two = await readThroughGroup(page);
      expect(controls(two)).toEqual([
        expect.stringMatching(/^checkbox, Unit, .*pre-picked, checked, key shortcuts a$/),
        expect.stringMatching(/^checkbox, End to end, .*not checked, key shortcuts b$/),
      ]);

      // And the third, whose Confirm button appears in place of Next, unannounced.
      await clearHeard(page);
      await page.keyboard.press("Enter");
      const third = await hearUntil(page, /^group, May I change the public API\?/);
      expect(third.filter((phrase) => !phrase.startsWith("polite: "))).toEqual([
        "group, May I change the public API?, Question 3 of 3",
      ]);
      expect(times(third, "Confirm")).toBe(0);
      const three = await readThroughGroup(page);
      expect(controls(three)).toEqual([
        expect.stringMatching(
          /^radio, Keep it unchanged, .*pre-picked, checked, key shortcuts a, position 1, set size 2$/,
        ),
        expect.stringMatching(
          /^radio, Allow breaking changes, .*not checked, key shortcuts b, position 2, set size 2$/,
        ),
      ]);

      // Confirmed: the outcome takes the focus ("Answered"), then the agent's reply is said once,
      // whole, and nothing of the form is said as it leaves.
      await clearHeard(page);
      await page.keyboard.press("Enter");
      await settledOutcome(page).getByText("Answered").waitFor();
      const done = await hearUntil(page, /^polite: Thanks, that settles it\./);
      expect(done.filter((phrase) => !/^polite: (Nothing|\d+ calls?) waits? for you$/.test(phrase))).toEqual([
        "group, Answered",
        expect.stringMatching(
          /^polite: Thanks, that settles it\. .*May I change the public API\? Keep it unchanged$/,
        ),
      ]);
      expect(times(liveOnly([...arrival, ...second, ...third, ...done]), "Question")).toBe(0);
    },
    FLOW_TIMEOUT,
  );

  it(
    "typed fields: each named by its prompt and described by its step as it takes the focus, and each refusal said once as it appears",
    async () => {
      const page = await demo.open("booking");
      await startReader(page);
      await sendMessage(page, "Book seats for the team dinner on Friday");
      const arrival = await hearUntil(page, /^spinbutton, How many seats\?/);
      expect(controls(arrival)).toEqual([
        "spinbutton, How many seats?, 2, Question 1 of 3 Between 1 and 9., required, max value 9, min value 1",
      ]);
      expect(times(arrival, "Question 1 of 3")).toBe(1);

      // A refused number: the error is said once, as it appears, and the field keeps the focus.
      const seats = questionForm(page).getByRole("spinbutton", { name: "How many seats?" });
      await clearHeard(page);
      await seats.fill("12");
      await page.keyboard.press("Enter");
      const refused = await hearUntil(page, /^assertive: /);
      expect(refused).toEqual(["assertive: Enter a whole number from 1 to 9."]);

      await clearHeard(page);
      await seats.fill("3");
      await page.keyboard.press("Enter");
      const email = await hearUntil(page, /^textbox, Who should we email\?/);
      expect(email.filter((phrase) => !phrase.startsWith("polite: "))).toEqual([
        "textbox, Who should we email?, Question 2 of 3, required",
      ]);

      // A required email left empty: its sentence, naming the question, once.
      await clearHeard(page);
      await page.keyboard.press("Enter");
      const missing = await hearUntil(page, /^assertive: /);
      expect(missing).toEqual(["assertive: “\u2068Who should we email?\u2069” needs an answer."]);

      await clearHeard(page);
      await page.keyboard.type("sam@example.com");
      await page.keyboard.press("Enter");
      const notes = await hearUntil(page, /^textbox, Anything else\?/);
      expect(notes.filter((phrase) => !phrase.startsWith("polite: "))).toEqual([
        "textbox, Anything else?, Question 3 of 3 500 characters left",
      ]);
      // Nothing more was said of the refusals once they were mended.
      expect(times([...email, ...notes], "Enter")).toBe(0);
      expect(times(liveOnly([...arrival, ...refused, ...email, ...missing, ...notes]), "Question")).toBe(0);
    },
    FLOW_TIMEOUT,
  );

  it(
    "an editable approval: the question and the tool's description on arrival, each field with the proposed value, then the decision, then the reply once",
    async () => {
      const page = await demo.open("operator");
      await startReader(page);
      await sendMessage(page, "Purge the images cache");
      const description =
        "Purges one of the site's caches. Visitors see slower pages until it warms up again.";
      const arrival = await hearUntil(page, /^region, Allow purge_cache to run\?/);
      expect(arrival.filter((phrase) => !phrase.startsWith("polite: "))).toEqual([
        "document",
        "textbox, Message, placeholder Send a message…",
        `region, Allow purge_cache to run?, ${description}`,
      ]);

      // The first Tab reaches the model's proposal, said as proposed and checked; the next, the
      // number field named by its prompt, holding the proposed value.
      await clearHeard(page);
      await page.keyboard.press("Tab");
      const cache = await hearUntil(page, /^radio, /);
      expect(controls(cache)).toEqual([
        expect.stringMatching(
          /^radio, Images, .*proposed, checked, key shortcuts b, position 2, set size 3$/,
        ),
      ]);
      await clearHeard(page);
      await page.keyboard.press("Tab");
      const hours = await hearUntil(page, /^spinbutton, /);
      expect(controls(hours)).toEqual([expect.stringMatching(/^spinbutton, How far back, in hours\?, 24, /)]);

      // Enter in a field approves with the fields as they stand: here, as proposed.
      await clearHeard(page);
      await page.keyboard.press("Enter");
      const decided = await hearUntil(page, /^polite: purge_cache returned/);
      expect(
        decided.filter((phrase) => !/^polite: (Nothing|\d+ calls?) waits? for you$/.test(phrase)),
      ).toEqual([
        `region, purge_cache approved, ${description} You approved this call.`,
        'polite: purge_cache returned {"hours":24,"purged":"images"}.',
      ]);
    },
    FLOW_TIMEOUT,
  );
});
