import { readFileSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import type { Page, Response } from "playwright-core";
import { describe, expect, it } from "vitest";
import { REPO_ROOT } from "../support/server-process";
import { composer, newPage, sendMessage, waitForQuestions } from "./support/browser";
import { startDemoSession } from "./support/demo-session";

// What the demo page costs a phone on its first load, and that nothing on it fails: counted in bytes
// and requests in real Chromium, never timed (Lighthouse's timings live in `npm run bench`).
const FLOW_TIMEOUT = 90_000;

const demo = startDemoSession("prepick-e2e-weight-");

/** The first page's JavaScript budget, gzip bytes, as docs/page-weight.md records it. */
function budget(): number {
  const doc = readFileSync(join(REPO_ROOT, "docs", "page-weight.md"), "utf8");
  const found = /budget: \*\*([\d,]+) bytes\*\*/.exec(doc);
  if (!found?.[1]) throw new Error("docs/page-weight.md states no budget as **N bytes**");
  return Number(found[1].replaceAll(",", ""));
}

/** One response of the page, with its body as the browser decoded it. */
interface Seen {
  path: string;
  status: number;
  type: string;
  encoding: string | undefined;
  body: Buffer;
}

/**
 * Everything that goes wrong on a page a person would never see but a console shows: failed
 * requests, console errors, uncaught errors and Content-Security-Policy violations.
 */
async function watch(
  page: Page,
): Promise<{ responses: Seen[]; problems: string[]; settle: () => Promise<unknown> }> {
  const responses: Seen[] = [];
  const problems: string[] = [];
  const pending: Promise<void>[] = [];
  await page.addInitScript(() =>
    document.addEventListener("securitypolicyviolation", (event) =>
      console.error(`CSP violation: ${event.violatedDirective} in ${event.sourceFile}`),
    ),
  );
  page.on("console", (message) => {
    if (message.type() === "error" || message.type() === "warning") problems.push(message.text());
  });
  page.on("pageerror", (error) => problems.push(`uncaught: ${error.message}`));
  page.on("requestfailed", (request) => {
    // A request the page ends itself (a reply's stream once the run parks, the feed on unload) is
    // not a failure, and the browser says nothing of it.
    if (request.failure()?.errorText !== "net::ERR_ABORTED") problems.push(`failed: ${request.url()}`);
  });
  page.on("response", (response: Response) => {
    const url = new URL(response.url());
    if (response.status() >= 400) problems.push(`${response.status()} ${url.pathname}`);
    const type = response.headers()["content-type"] ?? "";
    if (type.includes("event-stream")) return;
    pending.push(
      response.body().then(
        (body) => {
          responses.push({
            path: url.pathname + url.search,
            status: response.status(),
            type,
            encoding: response.headers()["content-encoding"],
            body,
          });
        },
        () => {},
      ),
    );
  });
  // Bodies arrive after their response events: read them before judging.
  return { responses, problems, settle: () => Promise.all(pending) };
}

const scripts = (responses: readonly Seen[]) => responses.filter(({ type }) => type.includes("javascript"));

/** Opens `path` on a phone-sized page and waits until the agents are listed and the chat is ready. */
async function openPhone(path: string) {
  const page = await newPage(await demo.context());
  await page.setViewportSize({ width: 390, height: 844 });
  const watched = await watch(page);
  await page.goto(new URL(path, demo.url).href);
  await composer(page).waitFor();
  await page.getByRole("button", { name: /^Agent: / }).waitFor();
  // The page has asked for what it asks for on load (the list, the agents, the inbox feed).
  await page.waitForLoadState("load");
  await page.waitForTimeout(300);
  return { page, ...watched };
}

describe("the demo page's weight, and a console with nothing in it", () => {
  it(
    "sends its scripts brotli-compressed, keeps the first page's JavaScript under budget, and loads Markdown only with the agent's first text",
    async () => {
      const { page, responses, problems, settle } = await openPhone("/?agent=refactorer");
      await settle();
      const first = scripts(responses);
      expect(first.length).toBeGreaterThan(0);
      for (const script of first)
        expect({ path: script.path, encoding: script.encoding }).toEqual({
          path: script.path,
          encoding: "br",
        });
      const gzipBytes = first.reduce((sum, script) => sum + gzipSync(script.body, { level: 9 }).length, 0);
      expect(gzipBytes).toBeLessThanOrEqual(budget());
      // Neither the Markdown renderer nor the AG-UI client is part of the first page.
      expect(first.map(({ path }) => path).filter((path) => /chat-markdown|ag-ui-chat/.test(path))).toEqual(
        [],
      );
      // The conversation list is read once; a new conversation is not read from the server at all.
      expect(responses.filter(({ path }) => path.startsWith("/agent/threads?")).length).toBe(1);
      expect(responses.filter(({ path }) => /^\/agent\/threads\/[^?]/.test(path))).toEqual([]);
      const favicon = responses.find(({ path }) => path === "/favicon.svg");
      expect(favicon?.status).toBe(200);

      await sendMessage(page, "Refactor the parser");
      await waitForQuestions(page);
      await page.getByRole("button", { name: "Skip: use the agent's picks" }).click();
      const reply = page.locator('[data-role="assistant"] [data-slot="chat-message-text"]').last();
      await reply.locator("li").first().waitFor({ timeout: 30_000 });
      await settle();
      expect(scripts(responses).some(({ path }) => path.includes("chat-markdown"))).toBe(true);
      expect(problems).toEqual([]);
    },
    FLOW_TIMEOUT,
  );

  it(
    "loads the AG-UI client only for ?protocol=ag-ui, with nothing failing there either",
    async () => {
      const { page, responses, problems, settle } = await openPhone("/?agent=operator&protocol=ag-ui");
      await settle();
      expect(scripts(responses).some(({ path }) => path.includes("ag-ui-chat"))).toBe(true);
      await sendMessage(page, "Read the status of the api");
      await page.locator('[data-role="assistant"] [data-slot="chat-message-text"]').first().waitFor();
      await settle();
      expect(problems).toEqual([]);
    },
    FLOW_TIMEOUT,
  );
});
