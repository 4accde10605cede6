import { mkdirSync } from "node:fs";
import { join } from "node:path";
import {
  type Browser,
  type BrowserContext,
  type BrowserContextOptions,
  chromium,
  type Locator,
  type Page,
  type Request,
} from "playwright-core";
import { REPO_ROOT } from "../../support/server-process";

/** Debian's Chromium; `CHROMIUM_PATH` points elsewhere on machines that keep it elsewhere. */
const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

/** The page size of every test and screenshot: small enough to keep the committed images small. */
export const VIEWPORT = { width: 900, height: 700 };

/**
 * Where the suite saves its screenshots: `docs/screenshots/` (which `docs/screenshots.md` shows)
 * only when `npm run screenshots` asks for them again, so a test run leaves the committed images
 * alone; `tests/artifacts/screenshots/` otherwise, to look at after a run.
 */
export const SCREENSHOT_DIR =
  process.env.PREPICK_UPDATE_SCREENSHOTS === "1"
    ? join(REPO_ROOT, "docs", "screenshots")
    : join(REPO_ROOT, "tests", "artifacts", "screenshots");

/**
 * Launches headless Chromium as the environment requires. Playwright gives every launch a fresh
 * temporary user-data dir (and removes it on close), so no profile carries over between runs.
 */
export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
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
}

/**
 * A fresh context (its own cookie, so its own actor on the server) in the given colour scheme;
 * `options` adds to it (a phone's viewport, `hasTouch` and `isMobile`, a locale).
 */
export function newContext(
  browser: Browser,
  colorScheme: "light" | "dark" = "light",
  options: BrowserContextOptions = {},
): Promise<BrowserContext> {
  return browser.newContext({ viewport: VIEWPORT, colorScheme, reducedMotion: "reduce", ...options });
}

/** A page of `context` whose waits fail after a bound, not at the test's timeout. */
export async function newPage(context: BrowserContext): Promise<Page> {
  const page = await context.newPage();
  page.setDefaultTimeout(20_000);
  return page;
}

/** Opens the demo page on `agent` (and `thread`, to reopen a conversation) and waits for the composer. */
export async function openDemo(page: Page, baseUrl: string, agent: string, thread?: string): Promise<void> {
  const url = new URL("/", baseUrl);
  url.searchParams.set("agent", agent);
  if (thread !== undefined) url.searchParams.set("thread", thread);
  await page.goto(url.href);
  await composer(page).waitFor();
}

/** The chat's message box. */
export function composer(page: Page): Locator {
  return page.getByRole("textbox", { name: "Message" });
}

/** Types `text` into the composer and sends it with Enter, as a person does. */
export async function sendMessage(page: Page, text: string): Promise<void> {
  const box = composer(page);
  await box.fill(text);
  await box.press("Enter");
}

/** The thread the demo page shows, from its `?thread=` (written once the agents load). */
export function threadOf(page: Page): string {
  const thread = new URL(page.url()).searchParams.get("thread");
  if (!thread) throw new Error(`The demo page's address has no ?thread=: ${page.url()}`);
  return thread;
}

/** The live question form (present while a question set is pending). */
export function questionForm(page: Page): Locator {
  return page.locator('[data-slot="elicitation-root"]');
}

/** The settled outcome of a question set. */
export function settledOutcome(page: Page): Locator {
  return page.locator('[data-slot="elicitation-settled"]');
}

/** The assistant's text in the transcript (every text part, joined). */
export async function assistantText(page: Page): Promise<string> {
  const parts = await page.locator('[data-slot="chat-message-text"]').allTextContents();
  return parts.join("\n");
}

/** Records every request the page makes whose path starts with `pathPrefix`. */
export function recordRequests(page: Page, pathPrefix: string): Request[] {
  const seen: Request[] = [];
  page.on("request", (request) => {
    if (new URL(request.url()).pathname.startsWith(pathPrefix)) seen.push(request);
  });
  return seen;
}

/** Saves the viewport as `docs/screenshots/<name>.png`. */
export async function saveScreenshot(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  // Let the caret and focus rings settle; animations are off through `reducedMotion`.
  await page.evaluate(() => document.fonts.ready);
  await page.screenshot({ path: join(SCREENSHOT_DIR, `${name}.png`), animations: "disabled", caret: "hide" });
}

/**
 * Saves `<name>-light.png` and `<name>-dark.png` of the same state, switching the page's theme
 * the way its toggle does (the `dark` class on `<html>`) so the form keeps its state and focus.
 */
export async function saveThemedScreenshots(page: Page, name: string): Promise<void> {
  const setDark = (dark: boolean) =>
    page.evaluate((on) => document.documentElement.classList.toggle("dark", on), dark);
  await setDark(false);
  await saveScreenshot(page, `${name}-light`);
  await setDark(true);
  await saveScreenshot(page, `${name}-dark`);
  await setDark(false);
}

/** Waits until a radio or checkbox shows `checked` (React renders a key press's change a moment later). */
export async function expectChecked(control: Locator, checked = true): Promise<void> {
  const deadline = Date.now() + 5_000;
  while ((await control.isChecked()) !== checked) {
    if (Date.now() > deadline) throw new Error(`${control} should be ${checked ? "checked" : "unchecked"}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/**
 * Waits for the question form to show "Question 1 of 3" (or `progress`) and to hold the focus,
 * which it takes on its own: from then on the person's keys reach it.
 */
export async function waitForQuestions(page: Page, progress = "Question 1 of 3"): Promise<void> {
  await questionForm(page).getByText(progress).waitFor();
  await page.waitForFunction(() => document.activeElement?.closest('[data-slot="elicitation-root"]') != null);
}
