import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type Browser, chromium, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_AGENTS } from "../../server/agents/demo-agents";
import { createServer, type PrepickServer } from "../../server/index";
import { DEMO_DIR, ensureBuilt, REGISTRY_DIR } from "../e2e/support/product";
import { seededPgliteFolder } from "../support/pglite-folder";

// The demo page as `npm start` serves it, built from the registry's sources, in real Chromium.
const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const TEST_TIMEOUT = 120_000;

let workDir: string;
let server: PrepickServer;
let browser: Browser;

beforeAll(async () => {
  workDir = mkdtempSync(join(tmpdir(), "prepick-demo-"));
  // The build `npm start` serves, made once per run for every file that needs it.
  await ensureBuilt();
  server = await createServer({
    agents: DEMO_AGENTS,
    port: 0,
    host: "127.0.0.1",
    dataDir: await seededPgliteFolder(join(workDir, "data")),
    demoDir: DEMO_DIR,
    registryDir: REGISTRY_DIR,
  });
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-background-networking",
      "--disable-component-update",
      "--no-first-run",
    ],
  });
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
  if (workDir) rmSync(workDir, { recursive: true, force: true });
});

/** A fresh browser context (its own cookie, so its own actor) with one page. */
async function openPage(): Promise<Page> {
  const context = await browser.newContext();
  const page = await context.newPage();
  page.setDefaultTimeout(20_000);
  return page;
}

describe("the demo page", () => {
  it("serves the registry beside the page", async () => {
    const response = await fetch(`${server.url}/r/agent-chat.json`);
    expect(response.status).toBe(200);
    const item = (await response.json()) as {
      name: string;
      type: string;
      files: { path: string; content?: string }[];
    };
    expect(item.name).toBe("agent-chat");
    expect(item.type).toBe("registry:block");
    const block = item.files.find((file) => file.path.endsWith("/agent-chat.tsx"));
    expect(block?.content).toContain("function AgentChat(");
  });

  it(
    "lists the server's agents and asks refactorer's intake inline; Enter confirms the pre-picked answers",
    async () => {
      const page = await openPage();
      try {
        await page.goto(`${server.url}/?agent=refactorer`);
        for (const name of ["refactorer", "booking", "planner", "operator"]) {
          await expect.poll(() => page.getByRole("radio", { name: new RegExp(`^${name}`) }).count()).toBe(1);
        }
        expect(await page.getByRole("radio", { name: /^refactorer/ }).isChecked()).toBe(true);

        const composer = page.getByRole("textbox", { name: "Message" });
        await composer.fill("Refactor the date helpers in utils.ts");
        await composer.press("Enter");

        // The intake shows inline, pre-picked, counted before the first question.
        await page.getByText("Question 1 of 3").waitFor();
        expect(await page.getByRole("radio", { name: /The whole module/ }).isChecked()).toBe(true);
        expect(await composer.isDisabled()).toBe(true);

        // Confirming is enough: Enter moves through the questions and submits on the last.
        await page.keyboard.press("Enter");
        await page.getByText("Question 2 of 3").waitFor();
        await page.keyboard.press("Enter");
        await page.getByText("Question 3 of 3").waitFor();
        await page.keyboard.press("Enter");

        const settled = page.locator('[data-slot="elicitation-settled"]');
        await settled.getByText("Answered").waitFor();
        expect(await settled.getByText("The whole module").count()).toBe(1);
        expect(await settled.locator('[data-defaulted="true"]').count()).toBe(3);
        // The run resumed and the person can write again.
        await expect.poll(() => composer.isEnabled()).toBe(true);

        // A reload shows the settled outcome again, never a live form.
        await page.reload();
        await page.locator('[data-slot="elicitation-settled"]').getByText("Answered").waitFor();
        expect(await page.getByRole("button", { name: "Confirm" }).count()).toBe(0);
      } finally {
        await page.context().close();
      }
    },
    TEST_TIMEOUT,
  );

  it(
    "asks booking's typed questions; an out-of-range number blocks the answer until it is fixed",
    async () => {
      const page = await openPage();
      try {
        await page.goto(`${server.url}/?agent=booking`);
        const composer = page.getByRole("textbox", { name: "Message" });
        await composer.fill("Book seats for the team dinner");
        await composer.press("Enter");

        const seats = page.getByRole("spinbutton", { name: /How many seats/ });
        await seats.waitFor();
        expect(await seats.inputValue()).toBe("2");
        await seats.fill("12");
        await seats.press("Enter");
        await page.getByRole("alert").filter({ hasText: "Enter a whole number from 1 to 9." }).waitFor();
        expect(await page.getByText("Question 1 of 3").count()).toBe(1);

        await seats.fill("3");
        await seats.press("Enter");
        const email = page.getByRole("textbox", { name: /Who should we email/ });
        await email.fill("ada@example.com");
        await email.press("Enter");
        await page.getByRole("textbox", { name: /Anything else/ }).waitFor();
        await page.getByRole("button", { name: "Confirm" }).click();

        const settled = page.locator('[data-slot="elicitation-settled"]');
        await settled.getByText("Answered").waitFor();
        expect(await settled.getByText("ada@example.com").count()).toBe(1);
        expect(await settled.getByText("3", { exact: true }).count()).toBe(1);
      } finally {
        await page.context().close();
      }
    },
    TEST_TIMEOUT,
  );

  it(
    "lets planner ask through the model; s skips and the agent goes on with its own picks",
    async () => {
      const page = await openPage();
      try {
        await page.goto(`${server.url}/?agent=planner`);
        const composer = page.getByRole("textbox", { name: "Message" });
        await composer.fill("Plan the migration to the new billing API");
        await composer.press("Enter");

        await page.getByText("How far ahead should the plan go?").waitFor();
        expect(await page.getByRole("radio", { name: /This week/ }).isChecked()).toBe(true);
        await page.keyboard.press("s");

        const settled = page.locator('[data-slot="elicitation-settled"]');
        await settled.getByText(/^Skipped/).waitFor();
        await expect.poll(() => composer.isEnabled()).toBe(true);
      } finally {
        await page.context().close();
      }
    },
    TEST_TIMEOUT,
  );

  it(
    "runs operator's cache purge only after the person approves it",
    async () => {
      const page = await openPage();
      try {
        await page.goto(`${server.url}/?agent=operator`);
        const composer = page.getByRole("textbox", { name: "Message" });
        await composer.fill("Purge the images cache");
        await composer.press("Enter");

        const approval = page.locator('[data-slot="chat-approval"]');
        await approval.getByRole("button", { name: "Approve" }).waitFor();
        // Parked on the person's word: nothing ran yet; its input waits as editable fields.
        expect(await approval.getByRole("form").count()).toBe(1);
        expect(await approval.locator('[data-slot="chat-tool-call-value"]').count()).toBe(0);
        await approval.getByRole("button", { name: "Approve" }).click();

        // Approved, the card keeps the decision and shows the tool's output under its input.
        await approval.getByText("You approved this call.").waitFor();
        await approval
          .locator('[data-slot="chat-tool-call-value"]')
          .filter({ hasText: '"purged": "images"' })
          .waitFor();
        // In the conversation (a screen reader's copy of the reply is said outside it).
        await page
          .getByRole("region", { name: "Conversation" })
          .getByText(/purge_cache returned .*"purged":"images"/)
          .waitFor();
        await expect.poll(() => composer.isEnabled()).toBe(true);
      } finally {
        await page.context().close();
      }
    },
    TEST_TIMEOUT,
  );
});
