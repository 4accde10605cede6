// @vitest-environment jsdom

import { type BaseEvent, EventType, type Interrupt } from "@ag-ui/client";
import { useChat } from "@ai-sdk/react";
import { cleanup, render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it } from "vitest";
import { ChatTranscript } from "@/components/ui/chat-transcript";
import type { PrepickMessagesInput } from "@/hooks/prepick-messages";
import { useChatTranscript } from "@/hooks/use-chat-transcript";
import { AgUiChatTransport } from "@/lib/prepick/transport/ag-ui/ag-ui-chat-transport";
import { startAgUiServer } from "@/lib/prepick/transport/ag-ui/ag-ui-server.fixture";
import { refactoringAgUiAgent, refactoringMastra } from "@/lib/prepick/transport/ag-ui/mastra-agent.fixture";
import { germanMessages } from "../../demo/demo-messages";

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  cleanup();
  for (const close of closers.splice(0)) await close();
});

const WAIT = { timeout: 10_000 };

/** A page composed as the docs show it: useChat, useChatTranscript and the transcript, nothing AG-UI-specific. */
function Page({
  transport,
  id,
  text,
  messages,
}: {
  transport: AgUiChatTransport;
  id: string;
  text: string;
  messages?: PrepickMessagesInput;
}) {
  const chat = useChat({ id, transport });
  const transcript = useChatTranscript(chat, { transport, ...(messages ? { messages } : {}) });
  return (
    <main data-status={chat.status}>
      <ChatTranscript messages={transcript.messages} />
      <button type="button" onClick={() => void chat.sendMessage({ text })}>
        Send
      </button>
    </main>
  );
}

const ready = () =>
  waitFor(() => expect(document.querySelector("main")?.getAttribute("data-status")).toBe("ready"), WAIT);

describe("useChatTranscript and ChatElicitation over AgUiChatTransport", () => {
  it("answers a Mastra agent's suspended tool in the form, and its reply lands in the same message", async () => {
    const mastra = refactoringMastra();
    const transport = new AgUiChatTransport({ agent: (threadId) => refactoringAgUiAgent(mastra, threadId) });
    render(<Page transport={transport} id="page-mastra" text="Refactor the parser" />);
    await userEvent.click(screen.getByRole("button", { name: "Send" }));

    const form = await screen.findByRole("form", { name: "Questions from the agent" }, WAIT);
    expect(within(form).getByText("How much should I cover?")).toBeTruthy();
    await userEvent.click(within(form).getByRole("radio", { name: /file/ }));
    await userEvent.click(within(form).getByRole("button", { name: "Confirm" }));

    await waitFor(
      () => expect(screen.queryByRole("form", { name: "Questions from the agent" })).toBeNull(),
      WAIT,
    );
    await ready();
    const articles = screen.getAllByRole("article");
    expect(articles.map((article) => article.getAttribute("data-role"))).toEqual(["user", "assistant"]);
    const reply = articles[1] as HTMLElement;
    expect(reply.querySelector("[data-slot=elicitation-settled]")).not.toBeNull();
    await waitFor(() => expect(reply.textContent).toContain("Refactoring with scope file."), WAIT);
  });

  it("approves an interrupted tool call from its approval card and shows the call's result", async () => {
    const server = await startAgUiServer((input, index) => {
      const started = { type: EventType.RUN_STARTED, threadId: input.threadId, runId: input.runId };
      const finished = { type: EventType.RUN_FINISHED, threadId: input.threadId, runId: input.runId };
      if (index > 0) {
        return [
          started,
          {
            type: EventType.TOOL_CALL_RESULT,
            messageId: "r1",
            toolCallId: "call-purge",
            content: "purged 3 keys",
          },
          finished,
        ] as BaseEvent[];
      }
      const approval: Interrupt = { id: "int-purge", reason: "tool_approval", toolCallId: "call-purge" };
      return [
        started,
        { type: EventType.TOOL_CALL_START, toolCallId: "call-purge", toolCallName: "purge_cache" },
        { type: EventType.TOOL_CALL_ARGS, toolCallId: "call-purge", delta: '{"region":"eu"}' },
        { type: EventType.TOOL_CALL_END, toolCallId: "call-purge" },
        { ...finished, outcome: { type: "interrupt", interrupts: [approval] } },
      ] as BaseEvent[];
    });
    closers.push(server.close);
    render(<Page transport={new AgUiChatTransport({ url: server.url })} id="page-approve" text="Purge" />);
    await userEvent.click(screen.getByRole("button", { name: "Send" }));
    await userEvent.click(await screen.findByRole("button", { name: "Approve" }, WAIT));
    await ready();
    await waitFor(() => expect(document.body.textContent).toContain("purged 3 keys"), WAIT);
    expect(server.inputs[1]?.resume).toEqual([
      { interruptId: "int-purge", status: "resolved", payload: { approved: true } },
    ]);
    await server.verified();
  });

  it("says in the form, in the page's language, that an expired question can no longer be answered", async () => {
    const expired: Interrupt = {
      id: "int-late",
      reason: "input_required",
      message: "Which region?",
      expiresAt: "2020-01-01T00:00:00Z",
      responseSchema: { type: "object", properties: { region: { type: "string", enum: ["eu", "us"] } } },
    };
    const server = await startAgUiServer((input) => [
      { type: EventType.RUN_STARTED, threadId: input.threadId, runId: input.runId } as BaseEvent,
      {
        type: EventType.RUN_FINISHED,
        threadId: input.threadId,
        runId: input.runId,
        outcome: { type: "interrupt", interrupts: [expired] },
      } as BaseEvent,
    ]);
    closers.push(server.close);
    render(
      <Page
        transport={new AgUiChatTransport({ url: server.url })}
        id="page-expired"
        text="Deploy"
        messages={germanMessages}
      />,
    );
    await userEvent.click(screen.getByRole("button", { name: "Send" }));
    const form = await screen.findByRole("form", { name: "Fragen des Agenten" }, WAIT);
    const deadline = form.querySelector("[data-slot=elicitation-deadline]");
    expect(deadline?.textContent).toMatch(
      /^Diese Fragen sind um .*2020.* abgelaufen und können nicht mehr beantwortet werden\.$/,
    );
    await userEvent.click(within(form).getByRole("button", { name: "Bestätigen" }));
    await within(form).findByText("Diese Antworten wurden nicht angenommen.", {}, WAIT);
    // Nothing of the transport's English reaches the person.
    expect(form.textContent).not.toMatch(/expired|Answer by|skip it/);
    expect(server.inputs).toHaveLength(1);
  });
});
