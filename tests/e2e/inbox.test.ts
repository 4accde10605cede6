import type { Locator, Page, Request } from "playwright-core";
import { describe, expect, it } from "vitest";
import {
  newPage,
  openDemo,
  sendMessage,
  settledOutcome,
  threadOf,
  waitForQuestions,
} from "./support/browser";
import { startDemoSession } from "./support/demo-session";
import { readThread } from "./support/thread";

const FLOW_TIMEOUT = 120_000;

const demo = startDemoSession("prepick-e2e-inbox-");

/** The desktop size, where the inbox sits in the side panel beside the conversation. */
const DESKTOP = { width: 1280, height: 860 };

/**
 * The words of `labels` the layout broke across lines (a word whose own box is more than one
 * line), which `overflow-wrap: anywhere` in a narrow column did to "The whole module".
 */
function brokenWords(labels: Locator): Promise<string[]> {
  return labels.evaluateAll((elements) =>
    elements.flatMap((element) => {
      const broken: string[] = [];
      const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const text = node.textContent ?? "";
        for (const match of text.matchAll(/\S+/g)) {
          const range = document.createRange();
          range.setStart(node, match.index);
          range.setEnd(node, match.index + match[0].length);
          const tops = new Set([...range.getClientRects()].map((rect) => Math.round(rect.top)));
          if (tops.size > 1) broken.push(match[0]);
        }
      }
      return broken;
    }),
  );
}

/** The page's inbox. */
function inbox(page: Page) {
  return page.getByRole("region", { name: /Waiting for you/ });
}

/**
 * What the page's one live count says (the header's; the inbox heading's badge is silent), and
 * that there is only one, so a new waiting call is heard once.
 */
async function inboxCount(page: Page) {
  const live = page.locator('[data-slot="inbox-count"] [role="status"]');
  const count = await live.count();
  if (count !== 1) return `${count} live counts`;
  return live.textContent();
}

describe("the inbox in the demo page", () => {
  it(
    "finds waiting calls across conversations, answers one in place, and every tab sees it leave",
    async () => {
      // A conversation with the refactorer that waits on its intake.
      const page = await demo.open("refactorer");
      await sendMessage(page, "Refactor the date helpers in utils.ts");
      await waitForQuestions(page);
      const intakeThread = threadOf(page);

      // Another agent, another conversation, waiting on an approval.
      await page.getByRole("radio", { name: /operator/ }).check();
      await expect.poll(() => threadOf(page)).not.toBe(intakeThread);
      await sendMessage(page, "Purge the images cache");
      await page.locator('[data-slot="chat-approval"]').getByRole("button", { name: "Approve" }).waitFor();
      const approvalThread = threadOf(page);

      // Back and Forward move between the two conversations; neither is lost.
      await page.goBack();
      await expect.poll(() => threadOf(page)).toBe(intakeThread);
      await waitForQuestions(page);
      await page.goForward();
      await expect.poll(() => threadOf(page)).toBe(approvalThread);
      await page.locator('[data-slot="chat-approval"]').getByRole("button", { name: "Approve" }).waitFor();

      // Both wait in the inbox, and in the conversation list.
      await expect.poll(() => inboxCount(page)).toBe("2 calls wait for you");
      const list = page.getByRole("navigation", { name: "Conversations" });
      await expect.poll(() => list.getByRole("button").count()).toBe(2);

      // A second tab of the same person.
      const second = await newPage(page.context());
      await openDemo(second, demo.url, "operator", approvalThread);
      await expect.poll(() => inboxCount(second)).toBe("2 calls wait for you");

      // Answer the intake from the inbox, on a desktop: open it, confirm the picks.
      await page.setViewportSize(DESKTOP);
      await inbox(page)
        .getByRole("button", { name: /3 questions from refactorer/ })
        .click();
      const form = inbox(page).locator('[data-slot="elicitation-root"]');
      await form.getByText("Question 1 of 3").waitFor();
      // Readable where it is answered: no option's word is broken across lines.
      expect(
        await brokenWords(
          form.locator('[data-slot="elicitation-option"] label, [data-slot="elicitation-legend"]'),
        ),
      ).toEqual([]);
      await form.getByRole("button", { name: "Next" }).click();
      await form.getByRole("button", { name: "Next" }).click();
      await form.getByRole("button", { name: "Confirm" }).click();
      await expect.poll(() => inboxCount(page)).toBe("1 call waits for you");
      // The focus stays in the inbox, on a line that says what happened, with the way to the conversation.
      const notice = inbox(page).locator('[data-slot="agent-inbox-notice"]');
      await expect.poll(() => notice.evaluate((element) => element === document.activeElement)).toBe(true);
      expect(await notice.textContent()).toContain("Answered. The agent goes on in the conversation.");
      const openConversation = notice.getByRole("button", { name: /^Open conversation/ });
      expect(await openConversation.textContent(), await notice.innerHTML()).toContain(
        "Refactor the date helpers",
      );
      // The other tab hears it without a reload.
      await expect.poll(() => inboxCount(second), { timeout: 5_000 }).toBe("1 call waits for you");

      // The first conversation's run went on from the answer.
      await expect
        .poll(async () => {
          const thread = await readThread(page, intakeThread);
          return thread.messages.flatMap((message) => message.frames ?? []).map(({ frame }) => frame.kind);
        })
        .toEqual(expect.arrayContaining(["tool-output", "run-finish"]));
      // The notice's way opens it, showing the questions settled.
      await openConversation.click();
      await expect.poll(() => threadOf(page)).toBe(intakeThread);
      await settledOutcome(page).waitFor();

      // After a reload, only the approval waits.
      await page.reload();
      await expect.poll(() => inboxCount(page)).toBe("1 call waits for you");
      expect(
        await inbox(page)
          .getByRole("button", { name: /Approve purge_cache/ })
          .count(),
      ).toBe(1);
      expect(
        await inbox(page)
          .getByRole("button", { name: /questions from refactorer/ })
          .count(),
      ).toBe(0);
    },
    FLOW_TIMEOUT,
  );
});

describe("many tabs of one person", () => {
  // A browser keeps six connections to a server over HTTP/1.1 for all its tabs: a feed and a
  // parked run stream per tab used them up by the fourth tab, whose page then never loaded.
  it(
    "five tabs on a waiting conversation hold one stream between them, and an answer from the last reaches every tab",
    async () => {
      const context = await demo.context();
      const open = new Set<Request>();
      context.on("request", (request) => {
        if (new URL(request.url()).pathname.startsWith("/agent/")) open.add(request);
      });
      context.on("requestfinished", (request) => open.delete(request));
      context.on("requestfailed", (request) => open.delete(request));

      const page = await newPage(context);
      await openDemo(page, demo.url, "operator");
      await sendMessage(page, "Purge the images cache");
      await page.locator('[data-slot="chat-approval"]').getByRole("button", { name: "Approve" }).waitFor();
      const thread = threadOf(page);
      await expect.poll(() => inboxCount(page)).toBe("1 call waits for you");
      const tabs = [page];
      for (let opened = 1; opened < 5; opened++) {
        const tab = await newPage(context);
        await openDemo(tab, demo.url, "operator", thread);
        tabs.push(tab);
      }
      for (const tab of tabs) await expect.poll(() => inboxCount(tab)).toBe("1 call waits for you");
      // One inbox feed for the five tabs, and no stream held for the parked run.
      await expect
        .poll(() => [...open].map((request) => new URL(request.url()).pathname))
        .toEqual(["/agent/approvals/stream"]);

      // The last tab approves from its inbox: the request goes out, and every tab hears it.
      const last = tabs.at(-1) as Page;
      await inbox(last)
        .getByRole("button", { name: /Approve purge_cache/ })
        .click();
      await inbox(last)
        .locator('[data-slot="chat-approval"]')
        .getByRole("button", { name: "Approve" })
        .click();
      for (const tab of tabs) {
        await expect.poll(() => inboxCount(tab), { timeout: 5_000 }).toBe("Nothing waits for you");
      }
      // The first tab, parked on the approval with no stream, follows the run it continued.
      await expect
        .poll(() => page.locator('[data-slot="agent-chat"]').getAttribute("data-status"))
        .toBe("ready");
      expect(
        await page.locator('[data-slot="chat-approval"]').getByRole("button", { name: "Approve" }).count(),
      ).toBe(0);
    },
    FLOW_TIMEOUT,
  );
});
