// @vitest-environment jsdom

import { readFileSync } from "node:fs";
import { join } from "node:path";
import { cleanup, render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { AgUiChatTransport } from "@/lib/prepick/transport/ag-ui";
import { refactorer } from "../../server/testing/test-agents";
import { startAgentServer } from "./agent-server.fixture";
import { Conversation, MyAgentChat } from "./headless-example.fixture";

// Tests run from the repository's root.
const EXAMPLE = join(process.cwd(), "src", "hooks", "headless-example.fixture.tsx");
const README = join(process.cwd(), "README.md");

let server: { url: string; close: () => Promise<void> };
const realFetch = globalThis.fetch;

beforeAll(async () => {
  server = await startAgentServer([refactorer]);
  // A browser on the server's own origin names that origin on its requests and keeps the actor
  // cookie the server issues; this stand-in does the same.
  let cookie: string | undefined;
  globalThis.fetch = async (input, init) => {
    const headers = new Headers(init?.headers);
    headers.set("origin", server.url);
    if (cookie) headers.set("cookie", cookie);
    const response = await realFetch(input, { ...init, headers });
    cookie = response.headers.get("set-cookie")?.split(";")[0] ?? cookie;
    return response;
  };
});
afterAll(async () => {
  globalThis.fetch = realFetch;
  await server?.close();
});
afterEach(cleanup);

describe("the README's headless example", () => {
  it("is the README's code, word for word", () => {
    const readme = readFileSync(README, "utf8");
    const block = /<!-- headless-example -->\s*```tsx\n([\s\S]*?)```/.exec(readme)?.[1];
    expect(block).toBe(readFileSync(EXAMPLE, "utf8"));
  });

  // The same component over both transports: the server's own wire, and AG-UI (POST /agent/ag-ui).
  const pages: [string, () => React.ReactElement][] = [
    ["AgentChatTransport", () => <MyAgentChat api={server.url} />],
    [
      "AgUiChatTransport",
      () => (
        <Conversation
          transport={new AgUiChatTransport({ url: `${server.url}/agent/ag-ui?agent=refactorer` })}
        />
      ),
    ],
  ];

  it.each(pages)("runs a conversation over %s: the questions, Confirm, the reply", async (_, page) => {
    const user = userEvent.setup();
    render(page());
    await user.type(screen.getByRole("textbox", { name: "Message" }), "Refactor the parser");
    await user.click(screen.getByRole("button", { name: "Send" }));
    expect(await screen.findByText("How much should I cover?", {}, { timeout: 10_000 })).toBeTruthy();
    expect((screen.getByRole("radio", { name: "The whole module" }) as HTMLInputElement).checked).toBe(true);
    await user.click(screen.getByRole("radio", { name: "This file" }));
    // A skip after a change asks first; keeping the change brings the buttons back.
    await user.click(screen.getByRole("button", { name: "Skip: use the agent's picks" }));
    expect(screen.getByText(/You changed some answers/)).toBeTruthy();
    await user.click(screen.getByRole("button", { name: "Keep my changes" }));
    await user.click(screen.getByRole("button", { name: "Confirm" }));
    // The settled set, then the agent's reply, which reads the answer by label.
    const replies = await screen.findAllByText(
      /How much should I cover\? → This file/,
      {},
      { timeout: 10_000 },
    );
    expect(replies.length).toBeGreaterThanOrEqual(1);
    await expect
      .poll(() => document.body.textContent ?? "", { timeout: 10_000 })
      .toContain('I will now work on "Refactor the parser" with your choices:');
  });
});
