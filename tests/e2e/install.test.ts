import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createFreshApp, runCommand, writeEntry } from "../install/fresh-app";
import { type RegistryServer, startRegistryServer } from "../install/registry-server";
import { runShadcn, writeShadcnHome } from "../install/shadcn-home";
import type { ServerProcess } from "../support/server-process";
import { removeTempFolders, tempFolder } from "../support/temp-folder";
import { type AppServer, freePort, serveApp } from "./support/app-server";
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

// A user's app: fresh Vite + React + Tailwind 4, the block added with the real shadcn CLI from the
// running server's /r/, built, served, and used in the browser against the reference server.
const SETUP_TIMEOUT = 8 * 60_000;
const FLOW_TIMEOUT = 60_000;

let product: ServerProcess;
let shadcnHome: RegistryServer;
let app: AppServer;
let browser: Browser;
let appDir: string;

/** Runs the shadcn CLI in the app, offline. */
const shadcn = (args: string[]) => runShadcn(appDir, shadcnHome.shadcnUrl, args);

beforeAll(async () => {
  await ensureBuilt();
  const work = tempFolder("prepick-e2e-install-");
  // The app's port is chosen first, so the server can list the page's origin for CORS.
  const appPort = await freePort();
  product = await startProduct(join(work, "data"), 0, {
    PREPICK_CORS_ORIGINS: `http://127.0.0.1:${appPort}`,
  });
  // Only the stand-in for shadcn's own registry (colors, utils, primitives); ours is the product's.
  shadcnHome = await startRegistryServer(join(work, "unused"), writeShadcnHome(join(work, "shadcn")));
  appDir = join(work, "app");
  await createFreshApp(appDir);
  await shadcn(["registry", "add", `@prepick=${product.url}/r/{name}.json`]);
  await shadcn(["add", "@prepick/agent-chat", "--yes", "--overwrite"]);
  writeEntry(
    appDir,
    [
      'import { AgentChat } from "@/components/agent-chat";',
      "",
      "// The page reaches the server through this host's /agent/*, or straight at ?api= (another origin).",
      'const api = new URLSearchParams(window.location.search).get("api");',
      "",
      "/** The block as a user drops it into a page. */",
      "export function App() {",
      '  return <AgentChat agent="refactorer" title="Refactorer" {...(api ? { api } : {})} />;',
      "}",
      "",
    ].join("\n"),
  );
  await runCommand(process.execPath, [join(appDir, "node_modules", "vite", "bin", "vite.js"), "build"], {
    cwd: appDir,
    timeoutMs: 180_000,
  });
  app = await serveApp(join(appDir, "dist"), product.url, appPort);
  browser = await launchBrowser();
}, SETUP_TIMEOUT);

// Removing the apps (thousands of files each: lucide-react alone ships ~5,000) takes a while.
afterAll(async () => {
  await browser?.close();
  await app?.close();
  await shadcnHome?.close();
  await product?.kill();
  removeTempFolders();
}, CLEANUP_TIMEOUT);

describe("the agent-chat block installed into a fresh app", () => {
  it(
    "came from the running server's registry and built",
    () => {
      expect(existsSync(join(appDir, "src", "components", "agent-chat.tsx"))).toBe(true);
      const components = JSON.parse(readFileSync(join(appDir, "components.json"), "utf8"));
      expect(components.registries?.["@prepick"]).toBe(`${product.url}/r/{name}.json`);
      expect(existsSync(join(appDir, "dist", "index.html"))).toBe(true);
    },
    FLOW_TIMEOUT,
  );

  /** The refactorer's intake in the installed block, from `path`; the answer goes to `agentOrigin`. */
  async function runIntake(path: string, agentOrigin: string) {
    const context = await newContext(browser);
    try {
      const page = await newPage(context);
      const errors: string[] = [];
      page.on("pageerror", (error) => errors.push(error.message));
      await page.goto(`${app.url}${path}`);
      await composer(page).waitFor();
      await sendMessage(page, "Refactor the date helpers in utils.ts");

      const form = questionForm(page);
      await waitForQuestions(page);
      await form.getByText(/^Three questions before I start/).waitFor();
      for (const step of ["Question 2 of 3", "Question 3 of 3"]) {
        await page.keyboard.press("Enter");
        await form.getByText(step).waitFor();
      }
      const answered = page.waitForResponse((response) => response.url().endsWith("/agent/tool-call/answer"));
      await page.keyboard.press("Enter");
      // The chat was this browser's first request to the server, so its answer must carry the
      // actor cookie that response issued; without it the server knows no such question (404).
      const answer = await answered;
      expect(answer.status(), `POST /agent/tool-call/answer answered ${await answer.text()}`).toBe(200);
      expect(new URL(answer.url()).origin).toBe(agentOrigin);

      const settled = settledOutcome(page);
      await settled.getByText("Answered").waitFor();
      expect(await settled.locator('[data-defaulted="true"]').count()).toBe(3);
      await expect.poll(() => assistantText(page)).toContain("How much should I cover? The whole module");
      await expect.poll(() => composer(page).isEnabled()).toBe(true);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  }

  it(
    "runs refactorer's intake against the reference server: Enter confirms and the reply follows",
    () => runIntake("/", app.url),
    FLOW_TIMEOUT,
  );

  it(
    "runs it against the server on another origin, which lists the page's origin",
    () => runIntake(`/?api=${encodeURIComponent(product.url)}`, product.url),
    FLOW_TIMEOUT,
  );
});
