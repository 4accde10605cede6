import type { Browser, BrowserContext, BrowserContextOptions, Page } from "playwright-core";
import { afterAll, afterEach, beforeAll } from "vitest";
import type { ServerProcess } from "../../support/server-process";
import { removeTempFolders, tempFolder } from "../../support/temp-folder";
import { launchBrowser, newContext, newPage, openDemo } from "./browser";
import { ensureBuilt, startProduct } from "./product";

/** The product one test file drives: its server, its browser, and the contexts a test opened. */
export interface DemoSession {
  /** The server's base URL. */
  readonly url: string;
  /** A fresh context (its own actor), closed after the test; `options` add to it (see `newContext`). */
  context(colorScheme?: "light" | "dark", options?: BrowserContextOptions): Promise<BrowserContext>;
  /** A page in a fresh context, on `agent`'s conversation of the demo page. */
  open(agent: string, colorScheme?: "light" | "dark"): Promise<Page>;
}

/**
 * Starts the product as `npm start` runs it (its store in a temp folder named from `prefix`) and
 * a browser before the file's tests, closes each test's contexts after it, and stops both after
 * the file.
 */
export function startDemoSession(prefix: string): DemoSession {
  let server: ServerProcess | undefined;
  let browser: Browser | undefined;
  const contexts: BrowserContext[] = [];

  beforeAll(async () => {
    await ensureBuilt();
    server = await startProduct(tempFolder(prefix));
    browser = await launchBrowser();
  }, 300_000);

  afterEach(async () => {
    for (const context of contexts.splice(0)) await context.close();
  });

  afterAll(async () => {
    await browser?.close();
    await server?.kill();
    removeTempFolders();
  });

  const started = () => {
    if (!server || !browser) throw new Error("the product and the browser did not start");
    return { server, browser };
  };
  const session: DemoSession = {
    get url() {
      return started().server.url;
    },
    async context(colorScheme = "light", options = {}) {
      const context = await newContext(started().browser, colorScheme, options);
      contexts.push(context);
      return context;
    },
    async open(agent, colorScheme = "light") {
      const page = await newPage(await session.context(colorScheme));
      await openDemo(page, session.url, agent);
      return page;
    },
  };
  return session;
}
