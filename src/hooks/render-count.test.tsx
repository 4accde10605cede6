// @vitest-environment jsdom

import { createServer, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { useChat } from "@ai-sdk/react";
import { act, cleanup, render, waitFor } from "@testing-library/react";
import type { UIMessage } from "ai";
import { memo, Profiler, type ProfilerOnRenderCallback } from "react";
import { afterEach, describe, expect, it } from "vitest";
import type { Frame } from "@/lib/prepick/core/frames";
import type { ElicitationRequest } from "@/lib/prepick/core/question";
import { bookingIntake } from "@/lib/prepick/core/spec-examples";
import { AgentChatTransport } from "@/lib/prepick/transport";
import { createElicitation } from "./create-elicitation";
import type { ElicitationBlock, TranscriptMessage } from "./transcript-types";
import { useChatTranscript } from "./use-chat-transcript";
import { useElicitationQuestion } from "./use-elicitation";

const request: ElicitationRequest = {
  source: "intake",
  questions: [...bookingIntake.questions],
};

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  cleanup();
  for (const close of closers.splice(0)) await close();
});

function counter() {
  const renders = new Map<string, number>();
  const onRender: ProfilerOnRenderCallback = (id) => renders.set(id, (renders.get(id) ?? 0) + 1);
  return { renders, onRender, count: (id: string) => renders.get(id) ?? 0 };
}

const QuestionView = memo(function QuestionView({ block, id }: { block: ElicitationBlock; id: string }) {
  const question = useElicitationQuestion(block, id);
  return (
    <label>
      {question.prompt}
      <input
        aria-label={question.prompt}
        value={question.value[0] ?? ""}
        onChange={(e) => question.setValue(e.target.value)}
      />
    </label>
  );
});

const MessageView = memo(function MessageView({
  message,
  onRender,
}: {
  message: TranscriptMessage;
  onRender: ProfilerOnRenderCallback;
}) {
  return (
    <Profiler id={message.id} onRender={onRender}>
      <div data-testid={message.id}>
        {message.blocks.map((block) =>
          block.type === "text" ? (
            <p key={block.id}>{block.text}</p>
          ) : block.type === "elicitation" ? (
            <div key={block.id}>
              {block.questions.map((q) => (
                <Profiler key={q.id} id={`${block.id}/${q.id}`} onRender={onRender}>
                  <QuestionView block={block} id={q.id} />
                </Profiler>
              ))}
            </div>
          ) : null,
        )}
      </div>
    </Profiler>
  );
});

const initialMessages: UIMessage[] = [
  { id: "u1", role: "user", parts: [{ type: "text", text: "Book a table" }] },
  {
    id: "a1",
    role: "assistant",
    parts: [
      {
        type: "dynamic-tool",
        toolName: "ask",
        toolCallId: "intake-1",
        state: "input-available",
        input: request,
        providerExecuted: true,
      },
    ],
  },
];

function App({
  transport,
  onRender,
  onSend,
}: {
  transport: AgentChatTransport;
  onRender: ProfilerOnRenderCallback;
  onSend: (send: (text: string) => Promise<void>) => void;
}) {
  const chat = useChat({ id: "thread-r", transport, messages: initialMessages });
  onSend((text) => chat.sendMessage({ text }));
  const transcript = useChatTranscript(chat, { transport });
  return (
    <div>
      {transcript.messages.map((message) => (
        <MessageView key={message.id} message={message} onRender={onRender} />
      ))}
    </div>
  );
}

describe("render counts", () => {
  it("a keystroke in one question re-renders that question, not the others", () => {
    const block = createElicitation({ id: "intake-1", request });
    const { renders, onRender, count } = counter();
    render(
      <div>
        {request.questions.map((question) => (
          <Profiler key={question.id} id={question.id} onRender={onRender}>
            <QuestionView block={block} id={question.id} />
          </Profiler>
        ))}
      </div>,
    );
    const before = new Map(renders);
    act(() => block.setValue("contact", "a"));
    act(() => block.setValue("contact", "ab"));
    expect(count("contact")).toBe((before.get("contact") ?? 0) + 2);
    expect(count("seats")).toBe(before.get("seats"));
    expect(count("notes")).toBe(before.get("notes"));
  });

  it("a streamed text delta re-renders the message it lands in, not the others", async () => {
    let live: ServerResponse | undefined;
    let seq = 0;
    const write = (frame: Frame) => live?.write(`id: ${++seq}\ndata: ${JSON.stringify(frame)}\n\n`);
    const server = createServer((req, res) => {
      req.resume();
      req.on("end", () => {
        res.writeHead(200, { "content-type": "text/event-stream", "x-run-id": "run-2" });
        live = res;
        write({ kind: "run-start", runId: "run-2", threadId: "t", messageId: "a2", agent: "test" });
        write({ kind: "text-start", id: "x" });
        write({ kind: "text-delta", id: "x", delta: "Hel" });
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    closers.push(
      () =>
        new Promise((resolve) => {
          live?.end();
          server.close(() => resolve());
        }),
    );
    const transport = new AgentChatTransport({
      api: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    });
    const { renders, onRender, count } = counter();
    let send: ((text: string) => Promise<void>) | undefined;
    const view = render(<App transport={transport} onRender={onRender} onSend={(fn) => (send = fn)} />);
    // Not inside act: the send resolves only when the stream ends, and act would hold every update.
    const reactAct = globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean };
    reactAct.IS_REACT_ACT_ENVIRONMENT = false;
    closers.push(async () => {
      reactAct.IS_REACT_ACT_ENVIRONMENT = true;
    });
    const sent = send?.("hello");
    await waitFor(() => expect(view.getByTestId("a2").textContent).toBe("Hel"));
    const before = new Map(renders);
    write({ kind: "text-delta", id: "x", delta: "lo" });
    await waitFor(() => expect(view.getByTestId("a2").textContent).toBe("Hello"));
    expect(count("a2")).toBeGreaterThan(before.get("a2") ?? 0);
    expect(count("a1")).toBe(before.get("a1"));
    expect(count("intake-1/seats")).toBe(before.get("intake-1/seats"));
    expect(count("u1")).toBe(before.get("u1"));
    write({ kind: "text-end", id: "x" });
    write({ kind: "run-finish", status: "completed" });
    live?.end();
    await sent;
  });
});
