import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createFreshNextApp, runCommand } from "../install/fresh-app";
import { type RegistryServer, startRegistryServer } from "../install/registry-server";
import { runShadcn, writeShadcnHome } from "../install/shadcn-home";
import { REPO_ROOT, type ServerProcess } from "../support/server-process";
import { removeTempFolders, tempFolder } from "../support/temp-folder";
import { waitFor } from "../support/wait-for";
import { freePort } from "./support/app-server";
import {
  assistantText,
  composer,
  launchBrowser,
  newContext,
  newPage,
  questionForm,
  sendMessage,
  settledOutcome,
  waitForQuestions,
} from "./support/browser";
import { ensureBuilt, startProduct } from "./support/product";

/** How long removing the fresh apps may take on a busy machine. */
const CLEANUP_TIMEOUT = 120_000;

// A user's Next.js 16 App Router app: the block and the hook added with the real shadcn CLI from
// the running server's /r/, rendered from a server-component page exactly as the README shows,
// built by `next build` (type check included), served by `next start`, and used in Chromium.
// One build serves both ways of reaching the server: the page at / talks to the server's own
// origin (PREPICK_CORS_ORIGINS lists the app's), /same-origin goes through the app's rewrite.
const SETUP_TIMEOUT = 12 * 60_000;
const FLOW_TIMEOUT = 60_000;

/** The app's own button, customised as a team would: its default variant is a pill. */
const CUSTOM_BUTTON_CLASS = "rounded-full";

let product: ServerProcess;
let shadcnHome: RegistryServer;
let browser: Browser;
let appDir: string;
let appUrl: string;
let nextServer: ChildProcess | undefined;
let nextOutput = "";

/** Runs the shadcn CLI in the app, offline; `input` answers its prompts. */
const shadcn = (args: string[], input?: string) => runShadcn(appDir, shadcnHome.shadcnUrl, args, input);

/** The code block after `<!-- marker -->` in a document of the repository, word for word. */
function documented(document: string, marker: string): string {
  const text = readFileSync(join(REPO_ROOT, document), "utf8");
  const block = new RegExp(`<!-- ${marker} -->\\s*\`\`\`\\w+\\n([\\s\\S]*?)\`\`\``).exec(text)?.[1];
  if (!block) throw new Error(`${document} has no code block marked <!-- ${marker} -->`);
  return block;
}

/** The README's page rendering `<AgentChat>`, with the server at `url`. */
function readmePage(url: string): string {
  return documented("README.md", "agent-chat-page").replace("http://localhost:3000", url);
}

/** The app's button: the primitive of this repository with a different default variant. */
function customisedButton(): string {
  const stock = readFileSync(join(REPO_ROOT, "src", "components", "ui", "button.tsx"), "utf8");
  const custom = stock.replace(
    'default: "bg-primary text-primary-foreground shadow-xs hover:bg-primary/90"',
    `default: "${CUSTOM_BUTTON_CLASS} bg-primary text-primary-foreground shadow-xs hover:bg-primary/90"`,
  );
  if (custom === stock) throw new Error("src/components/ui/button.tsx has no default variant to customise");
  return custom;
}

/** Starts `next start` on `port` and waits until it answers. */
async function startNext(port: number): Promise<void> {
  nextServer = spawn(
    process.execPath,
    [
      join(appDir, "node_modules", "next", "dist", "bin", "next"),
      "start",
      "-p",
      String(port),
      "-H",
      "127.0.0.1",
    ],
    { cwd: appDir, env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1" }, stdio: ["ignore", "pipe", "pipe"] },
  );
  nextServer.stdout?.on("data", (chunk) => {
    nextOutput += chunk;
  });
  nextServer.stderr?.on("data", (chunk) => {
    nextOutput += chunk;
  });
  await waitFor(
    `next start on port ${port}`,
    async () => {
      if (nextServer?.exitCode !== null) throw new Error(`next start exited:\n${nextOutput}`);
      const response = await fetch(`${appUrl}/`).catch(() => undefined);
      return response?.ok ? true : undefined;
    },
    { timeoutMs: 60_000, intervalMs: 250 },
  );
}

beforeAll(async () => {
  await ensureBuilt();
  const work = tempFolder("prepick-e2e-next-");
  // The app's port is chosen first, so the server can list the page's origin for CORS.
  const appPort = await freePort();
  appUrl = `http://127.0.0.1:${appPort}`;
  product = await startProduct(join(work, "data"), 0, { PREPICK_CORS_ORIGINS: appUrl });
  // Only the stand-in for shadcn's own registry (colors, utils, primitives); ours is the product's.
  shadcnHome = await startRegistryServer(join(work, "unused"), writeShadcnHome(join(work, "shadcn")));
  appDir = join(work, "app");
  // The rewrite docs/install.md shows, to the running server.
  await createFreshNextApp(
    appDir,
    documented("docs/install.md", "next-rewrite").replace("http://localhost:3000", product.url),
  );
  // The app already has its button, customised: asked whether to overwrite it, the person says no.
  mkdirSync(join(appDir, "components", "ui"), { recursive: true });
  writeFileSync(join(appDir, "components", "ui", "button.tsx"), customisedButton());

  await shadcn(["registry", "add", `@prepick=${product.url}/r/{name}.json`]);
  const added = await shadcn(["add", "@prepick/agent-chat", "@prepick/use-chat-transcript", "--yes"], "n\n");
  expect(added.output).toContain("button.tsx already exists");
  expect(existsSync(join(appDir, "components", "agent-chat.tsx")), added.output).toBe(true);
  writeFileSync(join(appDir, "app", "page.tsx"), readmePage(product.url));
  mkdirSync(join(appDir, "app", "same-origin"));
  writeFileSync(
    join(appDir, "app", "same-origin", "page.tsx"),
    readmePage(product.url).replace(` api="${product.url}"`, ""),
  );
  await runCommand(process.execPath, [join(appDir, "node_modules", "next", "dist", "bin", "next"), "build"], {
    cwd: appDir,
    env: { NEXT_TELEMETRY_DISABLED: "1" },
    timeoutMs: 360_000,
  });
  await startNext(appPort);
  browser = await launchBrowser();
}, SETUP_TIMEOUT);

// Removing the apps (thousands of files each: lucide-react alone ships ~5,000) takes a while.
afterAll(async () => {
  await browser?.close();
  if (nextServer && nextServer.exitCode === null) {
    const exited = new Promise((resolve) => nextServer?.once("exit", resolve));
    nextServer.kill("SIGKILL");
    await exited;
  }
  await shadcnHome?.close();
  await product?.kill();
  removeTempFolders();
}, 120_000);

describe(
  "the agent-chat block installed into a fresh Next.js App Router app",
  () => {
    it(
      "kept the app's own button and page, and the server pages are server components",
      () => {
        expect(readFileSync(join(appDir, "components", "ui", "button.tsx"), "utf8")).toBe(customisedButton());
        // The page and the layout say no "use client": the block is the client boundary.
        expect(readFileSync(join(appDir, "app", "page.tsx"), "utf8")).not.toContain("use client");
        expect(readFileSync(join(appDir, "components", "agent-chat.tsx"), "utf8")).toMatch(/^"use client";/);
      },
      FLOW_TIMEOUT,
    );

    /** The refactorer's intake from `path`: a hotkey picks, Enter confirms, and the run goes on. */
    async function runIntake(path: string, agentOrigin: string) {
      const context = await newContext(browser);
      try {
        const page = await newPage(context);
        const errors: string[] = [];
        page.on("pageerror", (error) => errors.push(error.message));
        // Every request the page makes succeeds, but the browser's own ask for a favicon the app has none of.
        page.on("response", (response) => {
          const { pathname } = new URL(response.url());
          if (response.status() >= 400 && pathname !== "/favicon.ico")
            errors.push(`${response.status()} ${response.url()}`);
        });
        await page.goto(`${appUrl}${path}`);
        await composer(page).waitFor();
        await sendMessage(page, "Refactor the date helpers in utils.ts");

        const form = questionForm(page);
        await waitForQuestions(page);
        await form.getByText("How much should I cover?").waitFor();
        // The hotkey of "This file" picks it.
        await page.keyboard.press("a");
        await expect.poll(() => form.getByRole("radio", { name: "This file" }).isChecked()).toBe(true);

        // The form's buttons are the app's button, with its customisation.
        const confirm = form.locator('[data-slot="elicitation-confirm"]');
        expect(await confirm.getAttribute("class")).toContain(CUSTOM_BUTTON_CLASS);
        const radius = await confirm.evaluate((element) => getComputedStyle(element).borderTopLeftRadius);
        expect(Number.parseFloat(radius), `the Confirm button's corner radius, ${radius}`).toBeGreaterThan(
          100,
        );

        const questions = await form.locator('[data-slot="elicitation-question"]').count();
        for (let step = 2; step <= questions; step++) {
          await page.keyboard.press("Enter");
          await form.getByText(`Question ${step} of ${questions}`).waitFor();
        }
        const answered = page.waitForResponse((response) =>
          response.url().endsWith("/agent/tool-call/answer"),
        );
        await page.keyboard.press("Enter");
        const answer = await answered;
        expect(answer.status(), `POST /agent/tool-call/answer answered ${await answer.text()}`).toBe(200);
        expect(new URL(answer.url()).origin).toBe(agentOrigin);

        await settledOutcome(page).getByText("Answered").waitFor();
        // The run continued: the model's reply reads the person's pick.
        await expect.poll(() => assistantText(page)).toContain("How much should I cover? This file");
        await expect.poll(() => composer(page).isEnabled()).toBe(true);
        expect(errors).toEqual([]);
      } finally {
        await context.close();
      }
    }

    it(
      "runs refactorer's intake against the server on another origin, as the README's page does",
      () => runIntake("/", product.url),
      FLOW_TIMEOUT,
    );

    it(
      "runs it through the app's rewrite of /agent/*, on the app's own origin",
      () => runIntake("/same-origin", appUrl),
      FLOW_TIMEOUT,
    );
  },
  CLEANUP_TIMEOUT,
);
