import { describe, expect, it } from "vitest";
import type { TranscriptMessage } from "@/hooks/transcript-types";
import { refactorerElicitation, textBlock, transcriptMessage, userMessage } from "./chat.fixture";
import { emptyReplyMemory, finishedReplies, speakable } from "./chat-transcript-announcer";

function reply(id: string, text: string, streaming = false): TranscriptMessage {
  return transcriptMessage(id, "assistant", [textBlock(id, text, streaming)]);
}

describe("finishedReplies", () => {
  it("says nothing of the history it is first given, then each new complete reply once", () => {
    const memory = emptyReplyMemory();
    const history = [userMessage("u1", "Hello"), reply("a1", "Hi there.")];
    expect(finishedReplies(memory, history)).toEqual([]);
    const asked = [...history, userMessage("u2", "Refactor the lexer")];
    expect(finishedReplies(memory, asked)).toEqual([]);
    const answered = [...asked, reply("a2", "Done: the lexer reads top to bottom.")];
    expect(finishedReplies(memory, answered)).toEqual(["Done: the lexer reads top to bottom."]);
    expect(finishedReplies(memory, [...answered])).toEqual([]);
  });

  it("says a streamed reply once, when it stops streaming, not in fragments", () => {
    const memory = emptyReplyMemory();
    finishedReplies(memory, [userMessage("u1", "Go")]);
    expect(finishedReplies(memory, [userMessage("u1", "Go"), reply("a1", "Read", true)])).toEqual([]);
    expect(finishedReplies(memory, [userMessage("u1", "Go"), reply("a1", "Reading the", true)])).toEqual([]);
    expect(finishedReplies(memory, [userMessage("u1", "Go"), reply("a1", "Reading the parser.")])).toEqual([
      "Reading the parser.",
    ]);
  });

  it("says the text that follows an answered question set, and never the set itself", () => {
    const memory = emptyReplyMemory();
    const asking = refactorerElicitation("a1");
    finishedReplies(memory, [userMessage("u1", "Refactor")]);
    const parked = transcriptMessage("a1", "assistant", [asking]);
    expect(finishedReplies(memory, [userMessage("u1", "Refactor"), parked])).toEqual([]);
    const goingOn = transcriptMessage("a1", "assistant", [asking, textBlock("a1", "On it.", false, 1)]);
    expect(finishedReplies(memory, [userMessage("u1", "Refactor"), goingOn])).toEqual(["On it."]);
  });

  it("says nothing of earlier messages loaded before the first, nor of another conversation", () => {
    const memory = emptyReplyMemory();
    const latest = [userMessage("u2", "And now?"), reply("a2", "Now this.")];
    finishedReplies(memory, latest);
    expect(finishedReplies(memory, [userMessage("u1", "First"), reply("a1", "Earlier."), ...latest])).toEqual(
      [],
    );
    expect(finishedReplies(memory, [userMessage("x1", "Other"), reply("x2", "Another thread.")])).toEqual([]);
  });

  it("never says the person's own messages", () => {
    const memory = emptyReplyMemory();
    finishedReplies(memory, [reply("a0", "Hello.")]);
    expect(finishedReplies(memory, [reply("a0", "Hello."), userMessage("u1", "Refactor it")])).toEqual([]);
  });
});

describe("speakable", () => {
  it("keeps the words of the agent's Markdown and drops its marks", () => {
    expect(
      speakable(
        "## Plan\n\n- **Read** the `parser`\n- Update [the docs](https://example.com/docs)\n\n```ts\nconst a = 1;\n```\n_Done_ soon",
      ),
    ).toBe("Plan Read the parser Update the docs const a = 1; Done soon");
    expect(speakable("snake_case_name stays")).toBe("snake_case_name stays");
  });
});
