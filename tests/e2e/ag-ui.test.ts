import type { Page, Request } from "playwright-core";
import { describe, expect, it } from "vitest";
import { wcagViolations } from "./support/axe";
import {
  assistantText,
  composer,
  expectChecked,
  newPage,
  questionForm,
  recordRequests,
  sendMessage,
  settledOutcome,
  threadOf,
  waitForQuestions,
} from "./support/browser";
import { startDemoSession } from "./support/demo-session";
import { readThread } from "./support/thread";

// The demo page with `?protocol=ag-ui`: AgUiChatTransport against the product's own
// POST /agent/ag-ui, as `npm start` runs it, in real Chromium.
const FLOW_TIMEOUT = 60_000;

const demo = startDemoSession("prepick-e2e-ag-ui-");

/** The `RunAgentInput` a request to `/agent/ag-ui` posted. */
interface PostedInput {
  threadId: string;
  messages: { id: string; role: string; content?: unknown }[];
  resume?: { interruptId: string; status: string; payload?: unknown }[];
}

/** A page in a fresh context (a new actor) on `agent`'s conversation over AG-UI, and what it sends. */
async function openAgUi(agent: string): Promise<{ page: Page; runs: Request[]; ownWire: Request[] }> {
  const page = await newPage(await demo.context());
  const runs = recordRequests(page, "/agent/ag-ui");
  // The Prepick wire's chat and settle routes: over AG-UI the chat never calls them.
  const ownWire = [...recordRequests(page, "/agent/chat"), ...recordRequests(page, "/agent/tool-call/")];
  const url = new URL("/", demo.url);
  url.searchParams.set("protocol", "ag-ui");
  url.searchParams.set("agent", agent);
  await page.goto(url.href);
  await composer(page).waitFor();
  return { page, runs, ownWire };
}

const inputs = (runs: readonly Request[]) => runs.map((request) => request.postDataJSON() as PostedInput);

/** The settled view's rows: question id, shown answer (without the pre-picked mark), defaulted. */
function settledRows(page: Page) {
  return settledOutcome(page)
    .locator('[data-slot="elicitation-settled-answer"]')
    .evaluateAll((rows) =>
      rows.map((row) => {
        const shown = row.querySelector("dd")?.cloneNode(true) as HTMLElement | undefined;
        for (const mark of shown?.querySelectorAll('[data-slot="elicitation-pre-picked"]') ?? [])
          mark.remove();
        return {
          id: row.getAttribute("data-question-id"),
          shown: shown?.textContent?.trim(),
          defaulted: row.getAttribute("data-defaulted") === "true",
        };
      }),
    );
}

const assistants = (page: Page) => page.locator('[data-role="assistant"]');

describe("refactorer's intake over AG-UI", () => {
  it(
    "asks with the pre-picks, takes a changed answer by keyboard, and the reply lands in the same message; a reload rebuilds it",
    async () => {
      const { page, runs, ownWire } = await openAgUi("refactorer");
      expect(await page.locator('[data-slot="agent-chat"]').getAttribute("data-protocol")).toBe("ag-ui");
      await sendMessage(page, "Refactor the parser");

      const form = questionForm(page);
      await waitForQuestions(page);
      // The server's full question set (metadata.prepick.request): its preamble and hotkeys.
      await form
        .getByText(
          "Three questions before I start. I have pre-picked what I would choose, so confirming is enough.",
        )
        .waitFor();
      await expectChecked(page.getByRole("radio", { name: "The whole module" }), true);
      expect(await composer(page).isDisabled()).toBe(true);
      expect(await page.locator('[data-role="assistant"] [data-slot="chat-message-text"]').count()).toBe(0);
      expect(await wcagViolations(page)).toEqual([]);

      // `a` picks "This file" in place of the pre-pick; Enter moves on, the rest stay pre-picked.
      await page.keyboard.press("a");
      await expectChecked(page.getByRole("radio", { name: "This file" }), true);
      await expectChecked(page.getByRole("radio", { name: "The whole module" }), false);
      await page.keyboard.press("Enter");
      await form.getByText("Question 2 of 3").waitFor();
      await page.keyboard.press("Enter");
      await form.getByText("Question 3 of 3").waitFor();
      await page.keyboard.press("Enter");

      await settledOutcome(page).getByText("Answered").waitFor();
      const expectedRows = [
        { id: "scope", shown: "This file", defaulted: false },
        { id: "tests", shown: "Unit", defaulted: true },
        { id: "api", shown: "Keep it unchanged", defaulted: true },
      ];
      expect(await settledRows(page)).toEqual(expectedRows);
      await expect.poll(() => assistantText(page)).toContain("How much should I cover? This file");
      expect(await assistants(page).count()).toBe(1);
      expect(await assistants(page).locator('[data-slot="elicitation-settled"]').count()).toBe(1);
      await expect.poll(() => composer(page).isEnabled()).toBe(true);

      // Two AG-UI runs: the message, then the resume of the intake's interrupt with the answers.
      const [first, second] = inputs(runs);
      expect(runs).toHaveLength(2);
      expect(first?.threadId).toBe(threadOf(page));
      expect(first?.resume).toBeUndefined();
      expect(first?.messages.at(-1)).toMatchObject({ role: "user", content: "Refactor the parser" });
      expect(second?.resume).toEqual([
        {
          interruptId: expect.stringMatching(/^intake-run-/),
          status: "resolved",
          payload: { scope: "file", tests: ["unit"], api: "keep" },
        },
      ]);
      expect(ownWire).toHaveLength(0);
      // The server settled the same call, with the person's answer.
      const stored = await readThread(page, threadOf(page));
      expect(stored.messages.map((message) => message.role)).toEqual(["user", "assistant"]);
      expect(stored.messages[1]?.status).toBe("completed");

      // A reload rebuilds the conversation as it was: the settled answers and the reply, one turn.
      const replyBefore = await assistantText(page);
      await page.reload();
      await composer(page).waitFor();
      await settledOutcome(page).getByText("Answered").waitFor();
      expect(await settledRows(page)).toEqual(expectedRows);
      // The Markdown renderer loads on its own after a reload: until it has, the reply shows as
      // plain paragraphs (its `**` and `- ` as typed). The reload must end in the rendered reply.
      await expect.poll(() => assistantText(page)).toBe(replyBefore);
      expect(await page.locator('[data-slot="chat-message-plain"]').count()).toBe(0);
      expect(await assistants(page).count()).toBe(1);
      expect(await page.locator('[data-role="user"]').count()).toBe(1);
      expect(await composer(page).isEnabled()).toBe(true);
      expect(runs).toHaveLength(2);
    },
    FLOW_TIMEOUT,
  );

  it(
    "brings a pending question set back answerable after a reload, and answering it resumes the run",
    async () => {
      const { page, runs } = await openAgUi("refactorer");
      await sendMessage(page, "Refactor the date helpers in utils.ts");
      await waitForQuestions(page);
      await page.reload();
      await composer(page).waitFor();
      await waitForQuestions(page);
      await expectChecked(page.getByRole("radio", { name: "The whole module" }), true);
      expect(await composer(page).isDisabled()).toBe(true);

      await page.keyboard.press("Enter");
      await questionForm(page).getByText("Question 2 of 3").waitFor();
      await page.keyboard.press("Enter");
      await questionForm(page).getByText("Question 3 of 3").waitFor();
      await page.keyboard.press("Enter");
      await settledOutcome(page).getByText("Answered").waitFor();
      await expect.poll(() => assistantText(page)).toContain("How much should I cover? The whole module");
      expect(await assistants(page).count()).toBe(1);
      expect(inputs(runs).at(-1)?.resume).toEqual([
        {
          interruptId: expect.stringMatching(/^intake-run-/),
          status: "resolved",
          payload: expect.any(Object),
        },
      ]);
    },
    FLOW_TIMEOUT,
  );

  it(
    "s skips: resumed as cancelled, the settled view says skipped and the agent goes on with its picks",
    async () => {
      const { page, runs } = await openAgUi("refactorer");
      await sendMessage(page, "Refactor the logger");
      await waitForQuestions(page);
      await page.keyboard.press("s");

      const settled = settledOutcome(page);
      await settled.getByText(/^Skipped/).waitFor();
      expect(await settled.getAttribute("data-status")).toBe("skipped");
      await expect.poll(() => assistantText(page)).toContain("You left the choices to me");
      expect(await assistants(page).count()).toBe(1);
      expect(inputs(runs).at(-1)?.resume).toEqual([
        { interruptId: expect.stringMatching(/^intake-run-/), status: "cancelled" },
      ]);
      await expect.poll(() => composer(page).isEnabled()).toBe(true);
    },
    FLOW_TIMEOUT,
  );
});

describe("an intake settled from the inbox while the AG-UI page holds it", () => {
  it(
    "refuses the page's late answer, a reload shows the server's skip, and the next message goes through",
    async () => {
      const { page, runs } = await openAgUi("refactorer");
      await sendMessage(page, "Refactor the parser");
      await waitForQuestions(page);

      // The inbox beside the chat skips it through the Prepick wire.
      const inbox = page.getByRole("region", { name: /Waiting for you/ });
      await inbox.getByRole("button", { name: /3 questions from refactorer/ }).click();
      await inbox.getByRole("button", { name: /^Skip/ }).click();
      await expect
        .poll(async () => {
          const thread = await readThread(page, threadOf(page));
          return thread.messages.flatMap((message) => message.frames ?? []).map(({ frame }) => frame.kind);
        })
        .toContain("run-finish");

      // The chat still holds the interrupt; answering it comes too late, and the run says so.
      const chat = page.locator('[data-slot="agent-chat"]');
      const form = chat.locator('[data-slot="elicitation-root"]');
      await form.getByRole("button", { name: "Next" }).click();
      await form.getByRole("button", { name: "Next" }).click();
      await form.getByRole("button", { name: "Confirm" }).click();
      await chat.getByRole("alert").filter({ hasText: /\S/ }).waitFor();
      expect(inputs(runs).at(-1)?.resume).toHaveLength(1);
      // A settled question set is final in the page; a reload shows what the server holds: the skip.
      await page.reload();
      await composer(page).waitFor();
      const settled = chat.locator('[data-slot="elicitation-settled"]');
      await settled.getByText(/^Skipped/).waitFor();
      expect(await settled.getAttribute("data-status")).toBe("skipped");

      // Nothing is left open: the next message starts a turn, with no resume.
      await expect.poll(() => composer(page).isEnabled()).toBe(true);
      await sendMessage(page, "Now rename the lexer");
      await expect.poll(() => assistants(page).count()).toBe(2);
      await expect
        .poll(() => assistants(page).nth(1).locator('[data-slot="chat-message-text"]').count())
        .toBeGreaterThan(0);
      expect(inputs(runs).at(-1)?.resume).toBeUndefined();
      expect(inputs(runs)).toHaveLength(3);
    },
    FLOW_TIMEOUT,
  );
});

describe("operator's approval over AG-UI", () => {
  /** Asks operator for a purge and waits for the approval card. */
  async function askForPurge() {
    const opened = await openAgUi("operator");
    await sendMessage(opened.page, "Purge the images cache");
    const approval = opened.page.locator('[data-slot="chat-approval"]');
    await approval.getByRole("button", { name: "Approve" }).waitFor();
    expect(await approval.getByText("purge_cache").count()).toBeGreaterThan(0);
    // The tool's description travels with the interrupt, and describes the card as on the own wire.
    const description = approval.getByText("Purges one of the site's caches.", { exact: false });
    await description.waitFor();
    expect(await approval.getAttribute("aria-describedby")).toBe(await description.getAttribute("id"));
    await expect.poll(() => approval.evaluate((card) => card === document.activeElement)).toBe(true);
    expect(await composer(opened.page).isDisabled()).toBe(true);
    return { ...opened, approval };
  }

  it(
    "runs purge_cache once approved by keyboard, its output in the same message",
    async () => {
      const { page, runs, ownWire, approval } = await askForPurge();
      // The purge's fields come first; Enter in them approves as proposed.
      await page.keyboard.press("Tab");
      expect(await page.evaluate(() => document.activeElement?.getAttribute("data-value"))).toBe("images");
      await page.keyboard.press("Enter");

      await approval.getByText("You approved this call.").waitFor();
      await approval
        .locator('[data-slot="chat-tool-call-value"]')
        .filter({ hasText: '"purged": "images"' })
        .waitFor();
      await expect.poll(() => assistantText(page)).toMatch(/purge_cache returned .*"purged":"images"/);
      expect(await assistants(page).count()).toBe(1);
      const resume = inputs(runs).at(-1)?.resume;
      expect(resume).toEqual([
        { interruptId: expect.any(String), status: "resolved", payload: { approved: true } },
      ]);
      expect(ownWire).toHaveLength(0);
      await expect.poll(() => composer(page).isEnabled()).toBe(true);

      await page.reload();
      await composer(page).waitFor();
      const reloaded = page.locator('[data-slot="chat-approval"]');
      await reloaded.getByText("You approved this call.").waitFor();
      expect(await assistantText(page)).toMatch(/purge_cache returned .*"purged":"images"/);
    },
    FLOW_TIMEOUT,
  );

  it(
    "does not run purge_cache once rejected: resumed as cancelled with the reason, which the server records",
    async () => {
      const { page, runs, approval } = await askForPurge();
      await approval.getByLabel("Reason, if you reject (optional)").fill("Not during the sale");
      await approval.getByRole("button", { name: "Reject" }).click();
      await approval.getByText("You rejected this call. Reason: Not during the sale").waitFor();
      expect(inputs(runs).at(-1)?.resume).toEqual([
        {
          interruptId: expect.any(String),
          status: "cancelled",
          metadata: { prepick: { reason: "Not during the sale" } },
        },
      ]);
      await expect.poll(() => composer(page).isEnabled()).toBe(true);
      const stored = await readThread(page, threadOf(page));
      const frames = stored.messages.flatMap((message) => (message.frames ?? []).map(({ frame }) => frame));
      expect(frames.filter((frame) => frame.kind === "tool-denied")).toEqual([
        expect.objectContaining({ reason: "Not during the sale" }),
      ]);
      expect(frames.map((frame) => frame.kind)).not.toContain("tool-output");

      await page.reload();
      await composer(page).waitFor();
      await page
        .locator('[data-slot="chat-approval"]')
        .getByText("You rejected this call. Reason: Not during the sale")
        .waitFor();
    },
    FLOW_TIMEOUT,
  );
});
