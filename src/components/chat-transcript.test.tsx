// @vitest-environment jsdom
import { cleanup, render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { TranscriptBlock, TranscriptMessage } from "@/hooks/transcript-types";
import {
  approvalBlock,
  conversation,
  reasoningBlock,
  refactorerElicitation,
  textBlock,
  toolBlock,
  transcriptMessage,
  userMessage,
} from "./chat.fixture";
import type { ChatBlockRenderer } from "./chat-message";
import { ChatTranscript } from "./chat-transcript";

afterEach(cleanup);

describe("ChatTranscript", () => {
  it("is a named, focusable region holding a log that does not speak, with an empty state", () => {
    render(<ChatTranscript messages={[]} />);
    const region = screen.getByRole("region", { name: "Conversation" });
    expect(region.tabIndex).toBe(0);
    const log = within(region).getByRole("log");
    // What is added to it holds forms and buttons: the announcer beside it says the replies.
    expect(log.getAttribute("aria-live")).toBe("off");
    expect(log.textContent).toContain("No messages yet");
    cleanup();
    render(<ChatTranscript messages={[]} empty={<p>Ask me anything</p>} label="Chat" />);
    expect(screen.getByRole("region", { name: "Chat" }).textContent).toBe("Ask me anything");
  });

  it("says each new reply of the agent once, complete, outside the log, and never a question set", () => {
    const asked = [userMessage("u1", "Refactor the lexer")];
    const { rerender } = render(<ChatTranscript messages={asked} />);
    const announcer = document.querySelector("[data-slot=chat-transcript-announcer]") as HTMLElement;
    expect([announcer.getAttribute("role"), announcer.getAttribute("aria-live")]).toEqual(["log", "polite"]);
    expect(screen.getByRole("region", { name: "Conversation" }).contains(announcer)).toBe(false);
    const parked = transcriptMessage("a1", "assistant", [refactorerElicitation("a1")]);
    rerender(<ChatTranscript messages={[...asked, parked]} />);
    expect(announcer.textContent).toBe("");
    const streaming = transcriptMessage("a1", "assistant", [
      refactorerElicitation("a1"),
      textBlock("a1", "Reading", true, 1),
    ]);
    rerender(<ChatTranscript messages={[...asked, streaming]} />);
    expect(announcer.textContent).toBe("");
    const done = transcriptMessage("a1", "assistant", [
      refactorerElicitation("a1"),
      textBlock("a1", "Reading the **lexer** now.", false, 1),
    ]);
    rerender(<ChatTranscript messages={[...asked, done]} />);
    expect([...announcer.querySelectorAll("p")].map((line) => line.textContent)).toEqual([
      "Reading the lexer now.",
    ]);
  });

  it("renders each message by role, and every kind of block in order", () => {
    render(<ChatTranscript messages={conversation()} />);
    const [request, reply, followUp] = screen.getAllByRole("article");
    expect(request?.getAttribute("data-role")).toBe("user");
    expect(request?.getAttribute("aria-label")).toBe("You");
    expect(reply?.getAttribute("aria-label")).toBe("Assistant");
    expect(followUp?.textContent).toContain("clear the build cache");
    const slots = Array.from(reply?.querySelectorAll("[data-slot]") ?? [])
      .map((element) => element.getAttribute("data-slot"))
      .filter((slot) =>
        ["elicitation-settled", "chat-message-reasoning", "chat-tool-call", "chat-message-text"].includes(
          slot ?? "",
        ),
      );
    expect(slots).toEqual([
      "elicitation-settled",
      "chat-message-reasoning",
      "chat-tool-call",
      "chat-message-text",
    ]);
  });

  it("renders a pending question set inline, answerable", () => {
    const messages = [
      userMessage("m1", "Refactor this"),
      transcriptMessage("m2", "assistant", [refactorerElicitation("m2")]),
    ];
    render(<ChatTranscript messages={messages} />);
    const reply = screen.getAllByRole("article")[1] as HTMLElement;
    expect(within(reply).getByText("How much should I cover?")).toBeTruthy();
  });

  it("lets a renderBlock replace one kind of block and keep the defaults for the rest", () => {
    const renderBlock: ChatBlockRenderer = (block) =>
      block.type === "tool" ? <p>custom {block.toolName}</p> : undefined;
    const messages = [
      transcriptMessage("m1", "assistant", [
        textBlock("m1", "Looking it up"),
        toolBlock("m1", { id: "c1", toolName: "search", input: {}, status: "running" }),
      ]),
    ];
    render(<ChatTranscript messages={messages} renderBlock={renderBlock} />);
    expect(screen.getByText("custom search")).toBeTruthy();
    expect(screen.getByText("Looking it up")).toBeTruthy();
  });

  it("re-renders only the message a streamed delta lands in", () => {
    const renders = new Map<string, number>();
    // Called once per block each time its message renders: counts message renders per block id.
    const renderBlock: ChatBlockRenderer = (block: TranscriptBlock) => {
      const messageId = block.messageId ?? "none";
      renders.set(messageId, (renders.get(messageId) ?? 0) + 1);
      return undefined;
    };
    const first = userMessage("m1", "Hello");
    const streaming = (text: string): TranscriptMessage =>
      transcriptMessage("m2", "assistant", [textBlock("m2", text, true)]);
    const { rerender } = render(
      <ChatTranscript messages={[first, streaming("Hi")]} renderBlock={renderBlock} />,
    );
    expect(renders.get("m1")).toBe(1);
    expect(renders.get("m2")).toBe(1);
    rerender(<ChatTranscript messages={[first, streaming("Hi there")]} renderBlock={renderBlock} />);
    rerender(<ChatTranscript messages={[first, streaming("Hi there, how")]} renderBlock={renderBlock} />);
    expect(renders.get("m1")).toBe(1);
    expect(renders.get("m2")).toBe(3);
    expect(screen.getByText("Hi there, how")).toBeTruthy();
  });

  it("keeps an approval answerable inside the log", async () => {
    const send = vi.fn(async () => {});
    const messages = [transcriptMessage("m1", "assistant", [approvalBlock("m1", { send })])];
    render(<ChatTranscript messages={messages} />);
    await userEvent.click(screen.getByRole("button", { name: "Approve" }));
    expect(send).toHaveBeenCalledOnce();
  });
});

describe("ChatMessage blocks", () => {
  it("shows a caret while text streams, and none when done", () => {
    const { rerender } = render(
      <ChatTranscript messages={[transcriptMessage("m1", "assistant", [textBlock("m1", "Hel", true)])]} />,
    );
    const article = screen.getByRole("article");
    expect(article.hasAttribute("data-streaming")).toBe(true);
    expect(article.querySelector("[data-slot=chat-message-caret]")).not.toBeNull();
    rerender(
      <ChatTranscript messages={[transcriptMessage("m1", "assistant", [textBlock("m1", "Hello")])]} />,
    );
    expect(screen.getByRole("article").hasAttribute("data-streaming")).toBe(false);
    expect(screen.getByRole("article").querySelector("[data-slot=chat-message-caret]")).toBeNull();
  });

  it("keeps reasoning collapsed, saying Thinking… while it streams", () => {
    const { rerender } = render(
      <ChatTranscript
        messages={[transcriptMessage("m1", "assistant", [reasoningBlock("m1", "Hmm", true)])]}
      />,
    );
    const details = screen.getByRole("group");
    expect(details.hasAttribute("open")).toBe(false);
    expect(details.textContent).toContain("Thinking…");
    rerender(
      <ChatTranscript
        messages={[transcriptMessage("m1", "assistant", [reasoningBlock("m1", "Hmm, done")])]}
      />,
    );
    expect(screen.getByRole("group").textContent).toContain("Reasoning");
  });
});
