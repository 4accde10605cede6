import type { Page } from "playwright-core";
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
      await approval.getByRole("button", { name: "Approve" }).click();

      // The run goes on at once, so the card's own "You approved" may already have given way.
      await page
        .locator('[data-slot="chat-tool-call"][data-state="done"]')
        .getByText("purge_cache")
        .waitFor();
      await expect.poll(() => assistantText(page)).toMatch(/purge_cache returned .*"purged":"images"/);
      expect(approvals).toHaveLength(1);
      const settlement = await purgeSettlement(page);
      expect(settlement.map((frame) => frame.kind)).toEqual(["tool-output"]);
      expect(settlement[0]?.output).toEqual({ purged: "images" });
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
      await approval.getByText("You rejected this call. Reason: Not during the sale").waitFor();
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
      expect(settlement[0]?.reason).toBe("Not during the sale");
      expect(await page.locator('[data-slot="chat-tool-call"][data-state="done"]').count()).toBe(0);
      await expect.poll(() => composer(page).isEnabled()).toBe(true);
    },
    FLOW_TIMEOUT,
  );
});
