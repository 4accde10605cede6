import type { Browser, BrowserContext } from "playwright-core";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { ServerProcess } from "../support/server-process";
import { removeTempFolders, tempFolder } from "../support/temp-folder";
import {
  assistantText,
  composer,
  expectChecked,
  launchBrowser,
  newContext,
  newPage,
  openDemo,
  questionForm,
  sendMessage,
  settledOutcome,
  threadOf,
  waitForQuestions,
} from "./support/browser";
import { ensureBuilt, startProduct } from "./support/product";
import { frameKinds } from "./support/thread";

// A pending question is rows in the store, not a held socket: it outlives the process that asked.
const FLOW_TIMEOUT = 120_000;

let browser: Browser;
const servers: ServerProcess[] = [];
const contexts: BrowserContext[] = [];

beforeAll(async () => {
  await ensureBuilt();
  browser = await launchBrowser();
}, 300_000);

afterEach(async () => {
  for (const context of contexts.splice(0)) await context.close();
  for (const server of servers.splice(0)) await server.kill();
});

afterAll(async () => {
  await browser?.close();
  removeTempFolders();
});

/** Starts the product on `dataDir` (on `port`, when given) and remembers it for clean-up. */
async function start(dataDir: string, port?: number): Promise<ServerProcess> {
  const server = await startProduct(dataDir, port);
  servers.push(server);
  return server;
}

describe("a pending question in the demo page", () => {
  it(
    "survives a SIGKILL of the server: after a restart on the same store and a reload it is still answerable",
    async () => {
      const dataDir = tempFolder("prepick-e2e-durable-");
      const first = await start(dataDir);
      const context = await newContext(browser);
      contexts.push(context);
      const page = await newPage(context);
      await openDemo(page, first.url, "refactorer");
      await sendMessage(page, "Refactor the date helpers in utils.ts");
      await questionForm(page).getByText("Question 1 of 3").waitFor();
      const thread = threadOf(page);

      await first.kill("SIGKILL");
      const port = Number(new URL(first.url).port);
      const second = await start(dataDir, port);
      expect(second.url).toBe(first.url);
      await page.reload();
      await composer(page).waitFor();

      const form = questionForm(page);
      await waitForQuestions(page);
      expect(threadOf(page)).toBe(thread);
      await expectChecked(page.getByRole("radio", { name: "The whole module" }), true);
      await page.keyboard.press("a");
      await page.keyboard.press("Enter");
      await form.getByText("Question 2 of 3").waitFor();
      await page.keyboard.press("Enter");
      await form.getByText("Question 3 of 3").waitFor();
      await page.keyboard.press("Enter");

      await settledOutcome(page).getByText("Answered").waitFor();
      await expect.poll(() => assistantText(page)).toContain("How much should I cover? This file");
      await expect.poll(() => frameKinds(page, thread)).toContain("run-finish");
      const kinds = await frameKinds(page, thread);
      expect(kinds.filter((kind) => kind === "elicitation")).toHaveLength(1);
      expect(kinds.filter((kind) => kind === "run-finish")).toHaveLength(1);
      expect(await composer(page).isEnabled()).toBe(true);
    },
    FLOW_TIMEOUT,
  );
});

describe("two tabs on one thread", () => {
  it(
    "answering in one tab settles the form in the other",
    async () => {
      const server = await start(tempFolder("prepick-e2e-tabs-"));
      // One browser context: the two tabs share the actor cookie, as two tabs of one person do.
      const context = await newContext(browser);
      contexts.push(context);
      const first = await newPage(context);
      await openDemo(first, server.url, "refactorer");
      await sendMessage(first, "Refactor the date helpers in utils.ts");
      await waitForQuestions(first);

      const second = await newPage(context);
      await openDemo(second, server.url, "refactorer", threadOf(first));
      await questionForm(second).getByText("Question 1 of 3").waitFor();

      await first.bringToFront();
      await first.keyboard.press("a");
      await first.keyboard.press("Enter");
      await first.keyboard.press("Enter");
      await first.keyboard.press("Enter");
      await settledOutcome(first).getByText("Answered").waitFor();

      // The other tab drops its form for the outcome and shows the reply, without a reload.
      await settledOutcome(second).getByText("Answered").waitFor();
      expect(await questionForm(second).count()).toBe(0);
      expect(await settledOutcome(second).getByText("This file").count()).toBe(1);
      await expect.poll(() => assistantText(second)).toContain("How much should I cover? This file");
      await expect.poll(() => composer(second).isEnabled()).toBe(true);
    },
    FLOW_TIMEOUT,
  );
});

describe("a half-answered question set in the demo page", () => {
  it(
    "comes back after a reload where the person left it, and its draft goes once it settles",
    async () => {
      const server = await start(tempFolder("prepick-e2e-draft-"));
      const context = await newContext(browser);
      contexts.push(context);
      const page = await newPage(context);
      await openDemo(page, server.url, "refactorer");
      await sendMessage(page, "Refactor the date helpers in utils.ts");
      await waitForQuestions(page);
      await page.keyboard.press("a");
      await expectChecked(page.getByRole("radio", { name: "This file" }), true);
      await page.keyboard.press("Enter");
      await waitForQuestions(page, "Question 2 of 3");
      const drafts = () =>
        page.evaluate(() => Object.keys(sessionStorage).filter((key) => key.startsWith("prepick:draft:")));
      expect(await drafts()).toHaveLength(1);

      await page.reload();
      await composer(page).waitFor();
      // Back at the second question, and the first keeps the person's pick, not the agent's.
      await waitForQuestions(page, "Question 2 of 3");
      await questionForm(page).getByRole("button", { name: "Back" }).click();
      await questionForm(page).getByText("Question 1 of 3").waitFor();
      await expectChecked(page.getByRole("radio", { name: "This file" }), true);
      await expectChecked(page.getByRole("radio", { name: "The whole module" }), false);

      await page.keyboard.press("Enter");
      await questionForm(page).getByText("Question 2 of 3").waitFor();
      await page.keyboard.press("Enter");
      await questionForm(page).getByText("Question 3 of 3").waitFor();
      await page.keyboard.press("Enter");
      await settledOutcome(page).getByText("Answered").waitFor();
      expect(await settledOutcome(page).locator('[data-question-id="scope"] dd').textContent()).toBe(
        "This file",
      );
      await expect.poll(drafts).toEqual([]);
    },
    FLOW_TIMEOUT,
  );
});
