import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { wcagViolations } from "./support/axe";
import {
  assistantText,
  composer,
  newPage,
  openDemo,
  recordRequests,
  sendMessage,
  threadOf,
} from "./support/browser";
import { startDemoSession } from "./support/demo-session";
import { readThread } from "./support/thread";

// operator's purge_cache lets the person change which cache and how far back before it runs.
const FLOW_TIMEOUT = 90_000;

const SIZES = [
  { name: "desktop", width: 1280, height: 800 },
  { name: "phone", width: 390, height: 844 },
] as const;

const demo = startDemoSession("prepick-e2e-approval-edits-");

/** A page at `size` on operator, asked for a purge; resolves once the editable approval waits. */
async function askForPurge(size: { width: number; height: number }): Promise<Page> {
  const page = await newPage(await demo.context());
  await page.setViewportSize(size);
  await openDemo(page, demo.url, "operator");
  await sendMessage(page, "Purge the images cache");
  await page.locator('[data-slot="chat-approval"]').getByRole("form").waitFor();
  return page;
}

describe("editing an approval's input in the demo page", () => {
  for (const size of SIZES) {
    it(
      `on ${size.name}: changes how far back, approves, and reads both values in the card and in the reply`,
      async () => {
        const page = await askForPurge(size);
        const approval = page.locator('[data-slot="chat-approval"]');
        // The model's proposal stands in each field, marked as proposed.
        expect(await approval.getByRole("radio", { name: /Images/ }).getAttribute("aria-checked")).toBe(
          "true",
        );
        const hours = approval.getByRole("spinbutton", { name: /How far back/ });
        expect(await hours.inputValue()).toBe("24");
        expect(await approval.getByText("proposed", { exact: true }).count()).toBe(2);
        expect((await wcagViolations(page)).map((violation) => violation.rule)).toEqual([]);

        const approvals = recordRequests(page, "/agent/tool-call/approve");
        await hours.fill("6");
        await approval.getByRole("button", { name: "Approve" }).click();

        // The card says what ran beside what the model proposed.
        await approval.getByText("You approved this call with your changes.").waitFor();
        const changed = approval.locator('[data-slot="chat-approval-change"][data-edited="true"]');
        await expect.poll(() => changed.textContent()).toBe("How far back, in hours?6proposed: 24");
        expect(approvals.map((request) => request.postDataJSON() as unknown)).toEqual([
          { toolCallId: expect.any(String), answers: { hours: ["6"] } },
        ]);
        // And the agent, told what it proposed and what ran, says both.
        await expect
          .poll(() => assistantText(page))
          .toMatch(/How far back, in hours\? 6 \(instead of the 24 I proposed\)/);
        await approval
          .locator('[data-slot="chat-tool-call-value"]')
          .filter({ hasText: '"hours": 6' })
          .waitFor();

        const thread = await readThread(page, threadOf(page));
        const frames = thread.messages.flatMap((message) => message.frames ?? []).map(({ frame }) => frame);
        expect(frames.find((frame) => frame.kind === "tool-approved")).toMatchObject({
          input: { cache: "images", hours: 6 },
          edited: ["hours"],
        });
        await expect.poll(() => composer(page).isEnabled()).toBe(true);

        // A reload shows the same card, from the stream alone.
        await page.reload();
        await composer(page).waitFor();
        await expect
          .poll(() =>
            page.locator('[data-slot="chat-approval-change"][data-edited="true"]').first().textContent(),
          )
          .toBe("How far back, in hours?6proposed: 24");
      },
      FLOW_TIMEOUT,
    );
  }

  it(
    "approves as proposed by keyboard: the first Tab reaches the proposed cache, Enter approves",
    async () => {
      const page = await askForPurge(SIZES[0]);
      const approvals = recordRequests(page, "/agent/tool-call/approve");
      const approval = page.locator('[data-slot="chat-approval"]');
      await expect.poll(() => approval.evaluate((card) => card === document.activeElement)).toBe(true);
      await page.keyboard.press("Tab");
      expect(await page.evaluate(() => document.activeElement?.getAttribute("data-value"))).toBe("images");
      await page.keyboard.press("Enter");
      await approval.getByText("You approved this call.").waitFor();
      expect(approvals.map((request) => request.postDataJSON() as unknown)).toEqual([
        { toolCallId: expect.any(String), answers: {} },
      ]);
      await expect.poll(() => assistantText(page)).toMatch(/purge_cache returned .*"purged":"images"/);
    },
    FLOW_TIMEOUT,
  );

  it(
    "is answered in place from the inbox, with the fields editable there",
    async () => {
      const page = await askForPurge(SIZES[0]);
      const inbox = page.getByRole("region", { name: /Waiting for you/ });
      await inbox.getByRole("button", { name: /Approve purge_cache/ }).click();
      const card = inbox.locator('[data-slot="chat-approval"]');
      const hours = card.getByRole("spinbutton", { name: /How far back/ });
      await hours.fill("12");
      await card.getByRole("button", { name: "Approve" }).click();
      await expect
        .poll(() => assistantText(page))
        .toMatch(/How far back, in hours\? 12 \(instead of the 24 I proposed\)/);
      const thread = await readThread(page, threadOf(page));
      const frames = thread.messages.flatMap((message) => message.frames ?? []).map(({ frame }) => frame);
      expect(frames.find((frame) => frame.kind === "tool-approved")).toMatchObject({ edited: ["hours"] });
    },
    FLOW_TIMEOUT,
  );
});
