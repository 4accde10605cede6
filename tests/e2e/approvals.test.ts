import type { Locator, Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { assistantText, composer, recordRequests, sendMessage, threadOf } from "./support/browser";
import { startDemoSession } from "./support/demo-session";
import { frameKinds, readThread } from "./support/thread";

// operator's purge_cache changes something outside the run, so it waits for a person's word.
const FLOW_TIMEOUT = 60_000;

const demo = startDemoSession("prepick-e2e-approvals-");

/** Opens operator, asks for a purge, and waits for the approval request; nothing has run yet. */
async function askForPurge(): Promise<Page> {
  const page = await demo.open("operator");
  await sendMessage(page, "Purge the images cache");
  const approval = page.locator('[data-slot="chat-approval"]');
  await approval.getByRole("button", { name: "Approve" }).waitFor();
  expect(await approval.getByText("purge_cache").count()).toBeGreaterThan(0);
  // The card says what the tool does, in its definition's words, and is described by them.
  const description = approval.getByText("Purges one of the site's caches.", { exact: false });
  await description.waitFor();
  expect(await approval.getAttribute("aria-describedby")).toBe(await description.getAttribute("id"));
  // As a new question set does, a new approval takes the focus, so the keyboard meets it first.
  await expect.poll(() => approval.evaluate((card) => card === document.activeElement)).toBe(true);
  expect(await page.getByRole("region", { name: /Allow purge_cache to run\?/ }).count()).toBe(1);
  expect(await composer(page).isDisabled()).toBe(true);
  // The request is streamed before the run parks, so the button can show a moment before the park is stored.
  await expect.poll(async () => (await frameKinds(page, threadOf(page))).at(-1)).toBe("run-parked");
  const kinds = await frameKinds(page, threadOf(page));
  expect(kinds).toContain("approval-request");
  expect(kinds).not.toContain("tool-output");
  return page;
}

/** The stored frames of the thread's run that settle `purge_cache`'s call. */
async function purgeSettlement(page: Page) {
  const thread = await readThread(page, threadOf(page));
  const frames = thread.messages.flatMap((message) => message.frames ?? []).map(({ frame }) => frame);
  const request = frames.find(
    (frame) => frame.kind === "approval-request" && frame.toolName === "purge_cache",
  );
  return frames.filter(
    (frame) => (frame.kind === "tool-output" || frame.kind === "tool-denied") && frame.id === request?.id,
  );
}

describe("a tool that needs approval, in the demo page", () => {
  it(
    "runs purge_cache once the person approves, and the agent reports its result",
    async () => {
      const page = await askForPurge();
      const approvals = recordRequests(page, "/agent/tool-call/approve");
      const approval = page.locator('[data-slot="chat-approval"]');
      // By keyboard: Tab from the card reaches the first of its editable fields, the proposed
      // cache, and Enter there approves as proposed, as Enter confirms a question set.
      await page.keyboard.press("Tab");
      expect(await page.evaluate(() => document.activeElement?.getAttribute("data-value"))).toBe("images");
      await page.keyboard.press("Enter");

      // Approved, the call keeps its card as a rejected one does: the decision, then its output.
      await approval.getByText("You approved this call.").waitFor();
      await approval
        .locator('[data-slot="chat-tool-call-value"]')
        .filter({ hasText: '"purged": "images"' })
        .waitFor();
      expect(await approval.getAttribute("data-state")).toBe("approved");
      expect(await page.locator('[data-slot="chat-tool-call"]').count()).toBe(0);
      // The focus lands on the outcome, not on the page's body: the card, named for the decision.
      await expect
        .poll(() => page.evaluate(() => document.activeElement?.getAttribute("data-slot")))
        .toBe("chat-approval");
      expect(
        await page.getByRole("region", { name: "purge_cache approved" }).getAttribute("data-state"),
      ).toBe("approved");
      await expect.poll(() => assistantText(page)).toMatch(/purge_cache returned .*"purged":"images"/);
      expect(approvals).toHaveLength(1);
      const settlement = await purgeSettlement(page);
      expect(settlement.map((frame) => frame.kind)).toEqual(["tool-output"]);
      expect(settlement[0]?.output).toEqual({ purged: "images", hours: 24 });
      await expect.poll(() => composer(page).isEnabled()).toBe(true);
    },
    FLOW_TIMEOUT,
  );

  it(
    "does not run purge_cache when the person rejects it, and passes the reason on",
    async () => {
      const page = await askForPurge();
      const rejections = recordRequests(page, "/agent/tool-call/reject");
      const approval = page.locator('[data-slot="chat-approval"]');
      await approval.getByLabel("Reason, if you reject (optional)").fill("Not during the sale");
      await approval.getByRole("button", { name: "Reject" }).click();

      // The card keeps the decision once the run's denial arrives, live as after a reload.
      const decision = approval.getByText("You rejected this call. Reason: Not during the sale");
      await decision.waitFor();
      // The buttons are gone; the focus is on the card, named for the outcome and described by
      // its line, not dropped to the page's body.
      const rejected = page.getByRole("region", { name: "purge_cache rejected" });
      await expect.poll(() => rejected.evaluate((card) => card === document.activeElement)).toBe(true);
      expect(await rejected.getAttribute("aria-describedby")).toContain(await decision.getAttribute("id"));
      expect(rejections.map((request) => request.postDataJSON() as unknown)).toEqual([
        { toolCallId: expect.any(String), reason: "Not during the sale" },
      ]);
      await expect.poll(() => frameKinds(page, threadOf(page))).toContain("run-finish");
      const settlement = await purgeSettlement(page);
      expect(settlement.map((frame) => frame.kind)).toEqual(["tool-denied"]);
      await page.reload();
      await page
        .locator('[data-slot="chat-approval"]')
        .getByText("You rejected this call. Reason: Not during the sale")
        .waitFor();
      // A decided card does not take the focus when the page comes back.
      expect(await page.evaluate(() => document.activeElement?.getAttribute("data-slot") ?? "")).not.toMatch(
        /chat-approval/,
      );
      expect(settlement[0]?.reason).toBe("Not during the sale");
      expect(await page.locator('[data-slot="chat-tool-call"][data-state="done"]').count()).toBe(0);
      await expect.poll(() => composer(page).isEnabled()).toBe(true);
    },
    FLOW_TIMEOUT,
  );
});

/** Whether the element lies wholly inside the conversation's scrolling box (and has a size). */
function inConversation(locator: Locator): Promise<boolean> {
  return locator.evaluate((element) => {
    const viewport = element.closest('[data-slot="message-scroller-viewport"]');
    if (!viewport) return false;
    const box = element.getBoundingClientRect();
    const frame = viewport.getBoundingClientRect();
    return box.height > 0 && box.top >= frame.top - 1 && box.bottom <= frame.bottom + 1;
  });
}

describe("scrolling after an approval, in the demo page", () => {
  for (const size of [
    { width: 900, height: 700 },
    { width: 390, height: 844 },
  ]) {
    it(
      `at ${size.width}×${size.height}, the next message and its reply land in view`,
      async () => {
        const page = await askForPurge();
        await page.setViewportSize(size);
        const approval = page.locator('[data-slot="chat-approval"]');
        await approval.getByRole("button", { name: "Approve" }).click();
        // The decided card takes the focus; the run's reply after it is followed into view.
        await expect
          .poll(() => page.evaluate(() => document.activeElement?.getAttribute("data-slot")))
          .toBe("chat-approval");
        await expect.poll(() => assistantText(page)).toMatch(/purge_cache returned/);
        await expect.poll(() => composer(page).isEnabled()).toBe(true);
        const firstReply = page.locator('[data-role="assistant"] [data-slot="chat-message-text"]').last();
        await expect.poll(() => inConversation(firstReply)).toBe(true);

        await sendMessage(page, "Check the api status");
        const sent = page.locator('[data-role="user"] [data-slot="bubble"]').last();
        await sent.getByText("Check the api status").waitFor();
        await expect.poll(() => assistantText(page)).toMatch(/read_status returned/);
        await expect
          .poll(() => page.locator('[data-slot="agent-chat"]').getAttribute("data-status"))
          .toBe("ready");
        const reply = page
          .locator('[data-role="assistant"] [data-slot="chat-message-text"]')
          .filter({ hasText: "read_status returned" });
        expect(await inConversation(sent)).toBe(true);
        expect(await inConversation(reply)).toBe(true);
      },
      FLOW_TIMEOUT,
    );
  }
});

describe("the operator agent in the demo's list", () => {
  it("says it asks for approval, not that it asks nothing", async () => {
    const page = await demo.open("operator");
    const card = page.locator('[data-slot="agent-picker-option"]').filter({ hasText: "operator" });
    await card.getByText("Asks your approval before purge_cache").waitFor();
    expect(await card.getByText("Asks nothing").count()).toBe(0);
  });
});
