// @vitest-environment jsdom
import { act, cleanup, render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { MockLanguageModelV4 } from "ai/test";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { startAgentServer } from "@/hooks/agent-server.fixture";
import { AgentChat } from "../../registry/blocks/agent-chat/agent-chat";
import { refactorer } from "../../server/testing/test-agents";

let server: { url: string; close: () => Promise<void> };
beforeAll(async () => {
  server = await startAgentServer([refactorer, refused]);
});
afterAll(async () => {
  await server?.close();
});
afterEach(cleanup);

/** An agent whose provider refuses every call, saying more than a person should read. */
const refused = {
  name: "refused",
  systemPrompt: "You answer.",
  model: new MockLanguageModelV4({
    doStream: async () => {
      throw new Error("401 Incorrect API key provided: sk-live-12****ab; connect ECONNREFUSED 10.0.0.7:443");
    },
  }),
};

let threads = 0;
const nextThread = () => `agent-chat-${++threads}-${Date.now()}`;

function mount(threadId: string, agent = "refactorer") {
  return render(
    <AgentChat api={server.url} actorId="ada" agent={agent} threadId={threadId} title="Refactorer" />,
  );
}

const WAIT = { timeout: 10_000 };

describe("AgentChat against the reference server", () => {
  it("asks inline before it starts, waits for the person, then replies in the same message", async () => {
    mount(nextThread());
    const box = screen.getByRole("textbox", { name: "Message" });
    await userEvent.type(box, "Refactor the parser{Enter}");

    const form = await screen.findByRole("form", { name: "Questions from the agent" }, WAIT);
    expect(within(form).getByText("How much should I cover?")).toBeTruthy();
    await waitFor(() => expect(box).toHaveProperty("disabled", true), WAIT);

    await userEvent.click(within(form).getByRole("button", { name: "Skip: use the agent's picks" }));
    await waitFor(
      () => expect(screen.queryByRole("form", { name: "Questions from the agent" })).toBeNull(),
      WAIT,
    );
    await waitFor(() => expect(box).toHaveProperty("disabled", false), WAIT);
    // The continuation streams into the same assistant message, after the settled questions.
    await waitFor(
      () => expect(document.querySelector("[data-slot=chat-message-text]")?.textContent ?? "").not.toBe(""),
      WAIT,
    );
    await waitFor(
      () =>
        expect(document.querySelector("[data-slot=agent-chat]")?.getAttribute("data-status")).toBe("ready"),
      WAIT,
    );

    const articles = screen.getAllByRole("article");
    expect(articles.map((article) => article.getAttribute("data-role"))).toEqual(["user", "assistant"]);
    const reply = articles[1] as HTMLElement;
    expect(reply.querySelector("[data-slot=elicitation-settled]")).not.toBeNull();
    expect(reply.textContent).toContain("The whole module");
  });

  it("brings a pending question back answerable after a reload, and a settled one as its outcome", async () => {
    const threadId = nextThread();
    const first = mount(threadId);
    await userEvent.type(screen.getByRole("textbox", { name: "Message" }), "Refactor the lexer{Enter}");
    await screen.findByRole("form", { name: "Questions from the agent" }, WAIT);
    first.unmount();

    mount(threadId);
    const form = await screen.findByRole("form", { name: "Questions from the agent" }, WAIT);
    expect(screen.getByRole("textbox", { name: "Message" })).toHaveProperty("disabled", true);
    await userEvent.click(within(form).getByRole("button", { name: "Skip: use the agent's picks" }));
    await waitFor(
      () =>
        expect(document.querySelector("[data-slot=agent-chat]")?.getAttribute("data-status")).toBe("ready"),
      WAIT,
    );
    await act(async () => cleanup());

    mount(threadId);
    await waitFor(() => expect(screen.getAllByRole("article")).toHaveLength(2), WAIT);
    expect(screen.queryByRole("form", { name: "Questions from the agent" })).toBeNull();
    expect(document.querySelector("[data-slot=elicitation-settled]")).not.toBeNull();
  });

  it("says why a reply failed in the messages' own sentence, with the error id, never the provider's text", async () => {
    mount(nextThread(), "refused");
    await userEvent.type(screen.getByRole("textbox", { name: "Message" }), "Hello{Enter}");
    const alert = await waitFor(() => {
      const found = document.querySelector("[data-slot=agent-chat-error]");
      expect(found?.textContent).toContain("could not answer");
      return found as HTMLElement;
    }, WAIT);
    expect(alert.textContent).toMatch(
      /^The agent's model could not answer, so the reply stopped\. Send your message again to retry\. If it keeps happening, quote error err-[0-9a-f-]{36}\./,
    );
    expect(alert.textContent).not.toMatch(/sk-live|ECONNREFUSED|401|prepick-run-failed/);
  });
});
