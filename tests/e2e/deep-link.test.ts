import type { BrowserContext, Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { wcagViolations } from "./support/axe";
import {
  newPage,
  questionForm,
  sendMessage,
  settledOutcome,
  threadOf,
  waitForQuestions,
} from "./support/browser";
import { startDemoSession } from "./support/demo-session";

// A call's own link, opened on another device: the person's phone (a fresh browser context that
// carries only their identity) opens `/answer/<callId>`, answers there, and goes on to the
// conversation. Someone else's browser gets nothing.
const FLOW_TIMEOUT = 120_000;
const PHONE = { viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true };

const demo = startDemoSession("prepick-e2e-deep-link-");

/** The actor cookie of `context`, as the server issued it. */
async function actorCookie(context: BrowserContext) {
  const cookie = (await context.cookies()).find((candidate) => candidate.name === "prepick_actor");
  if (!cookie) throw new Error("the server issued no prepick_actor cookie");
  return cookie;
}

/** The id of the one call waiting for the person of `page`. */
async function waitingCallId(page: Page): Promise<string> {
  const response = await page.request.get(new URL("/agent/approvals", demo.url).href);
  const { approvals } = (await response.json()) as { approvals: { id: string }[] };
  const id = approvals[0]?.id;
  if (!id) throw new Error("nothing waits for the person");
  return id;
}

describe("a deep link to one waiting call", () => {
  it(
    "opens on the owner's phone in a fresh context, is answered there, and leads to its conversation",
    async () => {
      const desktop = await demo.open("refactorer");
      await sendMessage(desktop, "Refactor the date helpers in utils.ts");
      await waitForQuestions(desktop);
      const thread = threadOf(desktop);
      const callId = await waitingCallId(desktop);

      // The same person on a phone: a new browser, signed in as they are (their identity only).
      const phoneContext = await demo.context("light", PHONE);
      await phoneContext.addCookies([{ ...(await actorCookie(desktop.context())) }]);
      const phone = await newPage(phoneContext);
      await phone.goto(new URL(`/answer/${encodeURIComponent(callId)}`, demo.url).href);
      await phone.getByRole("heading", { name: "3 questions from refactorer" }).waitFor();
      const form = questionForm(phone);
      await form.getByText("Question 1 of 3").waitFor();
      expect(await wcagViolations(phone)).toEqual([]);
      // Only the call: no composer, no transcript.
      expect(await phone.getByRole("textbox", { name: "Message" }).count()).toBe(0);

      await form.getByRole("radio", { name: /This file/ }).tap();
      await form.getByRole("button", { name: "Next" }).tap();
      await form.getByRole("button", { name: "Next" }).tap();
      await form.getByRole("button", { name: "Confirm" }).tap();
      await settledOutcome(phone).getByText("This file").waitFor();

      // Then its conversation, where the agent went on.
      await phone.getByRole("button", { name: "Open conversation" }).tap();
      await phone.getByRole("textbox", { name: "Message" }).waitFor();
      await expect.poll(() => new URL(phone.url()).pathname).toBe("/");
      expect(threadOf(phone)).toBe(thread);
      await settledOutcome(phone).getByText("This file").waitFor();

      // The desktop's form is settled too, by the answer given on the phone.
      await desktop.reload();
      await settledOutcome(desktop).getByText("This file").waitFor();

      // Opened again, the link says it was answered, and still leads to the conversation.
      await phone.goto(new URL(`/answer/${encodeURIComponent(callId)}`, demo.url).href);
      await phone.getByText("This was already answered.").waitFor();
      await phone.getByRole("button", { name: "Open conversation" }).waitFor();
    },
    FLOW_TIMEOUT,
  );

  it(
    "continues on the phone the draft typed on the desktop, which is not an answer until confirmed",
    async () => {
      const desktop = await demo.open("refactorer");
      await sendMessage(desktop, "Refactor the number helpers in math.ts");
      await waitForQuestions(desktop);
      const callId = await waitingCallId(desktop);
      const typed = questionForm(desktop);
      await typed.getByRole("radio", { name: /This file/ }).check();
      await typed.getByRole("button", { name: "Next" }).click();
      await typed.getByText("Question 2 of 3").waitFor();
      // The draft reaches the server a moment after the person stops.
      await expect
        .poll(async () => {
          const response = await desktop.request.get(new URL(`/agent/tool-calls/${callId}`, demo.url).href);
          return ((await response.json()) as { draft?: { index: number } }).draft?.index;
        })
        .toBe(1);

      const phoneContext = await demo.context("light", PHONE);
      await phoneContext.addCookies([{ ...(await actorCookie(desktop.context())) }]);
      const phone = await newPage(phoneContext);
      await phone.goto(new URL(`/answer/${encodeURIComponent(callId)}`, demo.url).href);
      const form = questionForm(phone);
      await form.getByText("Question 2 of 3").waitFor();
      await form.getByRole("button", { name: "Back" }).tap();
      await expect.poll(() => form.getByRole("radio", { name: /This file/ }).isChecked()).toBe(true);
      // Still waiting: a draft is never an answer.
      const inbox = await phone.request.get(new URL("/agent/approvals", demo.url).href);
      expect(
        ((await inbox.json()) as { approvals: { id: string }[] }).approvals.map((call) => call.id),
      ).toContain(callId);
    },
    FLOW_TIMEOUT,
  );

  it(
    "shows someone else that nothing waits for them there",
    async () => {
      const owner = await demo.open("operator");
      await sendMessage(owner, "Purge the images cache");
      await owner.locator('[data-slot="chat-approval"]').getByRole("button", { name: "Approve" }).waitFor();
      const callId = await waitingCallId(owner);

      const stranger = await newPage(await demo.context("light", PHONE));
      await stranger.goto(new URL(`/answer/${encodeURIComponent(callId)}`, demo.url).href);
      await stranger
        .getByRole("alert")
        .getByText(/Nothing waits for you at this link/)
        .waitFor();
      expect(await stranger.locator('[data-slot="chat-approval"]').count()).toBe(0);
      const response = await stranger.request.get(new URL(`/agent/tool-calls/${callId}`, demo.url).href);
      expect(response.status()).toBe(404);
    },
    FLOW_TIMEOUT,
  );
});
