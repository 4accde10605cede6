"use client";

import * as React from "react";
import type { TranscriptMessage } from "@/hooks/transcript-types";
import { cn } from "@/lib/utils";

/**
 * The agent's Markdown as a screen reader should say it: the words without the marks around
 * them (emphasis, code, headings, bullets, a link's address).
 */
function speakable(markdown: string): string {
  return markdown
    .replace(/^```.*$/gm, "")
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/^\s{0,3}(#{1,6}|>|[-*+]|\d+[.)])\s+/gm, "")
    .replace(/(\*\*|__|~~|`)/g, "")
    .replace(/(^|\W)[*_](\S(?:.*?\S)?)[*_](?=\W|$)/g, "$1$2")
    .replace(/\s+/g, " ")
    .trim();
}

/** What the announcer remembers between renders. */
interface ReplyMemory {
  /** Every text block of the agent seen so far, and whether it was still streaming then. */
  blocks: Map<string, "streaming" | "heard">;
  /** The last message of the previous render, where new text can appear. */
  lastId: string | undefined;
}

/** A memory that has seen nothing yet: the first messages it is given are the conversation's history. */
function emptyReplyMemory(): ReplyMemory {
  return { blocks: new Map(), lastId: undefined };
}

/**
 * The agent's text that finished since the previous render, in order, to be said once: a text
 * block of the agent is said when it is complete (as it arrives, or when it stops streaming),
 * in the last message of the previous render or a message after it. The first messages the
 * memory sees are history (a loaded conversation), as are messages loaded before the first one
 * (Show earlier messages) and a whole other conversation: none of them is said.
 */
function finishedReplies(memory: ReplyMemory, messages: readonly TranscriptMessage[]): string[] {
  const from = memory.lastId === undefined ? -1 : messages.findIndex(({ id }) => id === memory.lastId);
  const history = from < 0;
  const said: string[] = [];
  messages.forEach((message, index) => {
    if (message.role === "user") return;
    for (const block of message.blocks) {
      if (block.type !== "text") continue;
      const before = memory.blocks.get(block.id);
      if (before === "heard") continue;
      if (block.streaming) {
        memory.blocks.set(block.id, "streaming");
        continue;
      }
      memory.blocks.set(block.id, "heard");
      const text = speakable(block.text);
      // A block seen streaming is said when it ends, wherever it is; a complete one only if new.
      const live = before === "streaming" || (!history && index >= from);
      if (live && text !== "") said.push(text);
    }
  });
  memory.lastId = messages.at(-1)?.id ?? memory.lastId;
  return said;
}

/** How long a said reply stays in the region, so a reader browsing past it later meets it once, in the transcript. */
const HEARD_FOR_MS = 7_000;

/**
 * A live region, seen by screen readers only, that says the agent's replies once each is complete.
 * The transcript itself does not speak (its log is `aria-live="off"`): what is added to it also
 * holds question sets, approvals and buttons, which a screen reader meets by the focus they take,
 * and a streamed reply would be said in fragments. Each reply leaves the region a few seconds
 * after it was said, as React Aria's announcer does.
 */
function ChatTranscriptAnnouncer({
  messages,
  className,
  ...props
}: React.ComponentProps<"div"> & {
  /** The transcript's messages. */
  messages: readonly TranscriptMessage[];
}) {
  const memory = React.useRef<ReplyMemory>(null);
  const [said, setSaid] = React.useState<readonly { key: number; text: string }[]>([]);
  const next = React.useRef(0);
  const timers = React.useRef(new Set<number>());
  React.useEffect(() => {
    const pending = timers.current;
    return () => {
      for (const timer of pending) window.clearTimeout(timer);
    };
  }, []);
  React.useEffect(() => {
    memory.current ??= emptyReplyMemory();
    // The conversation's first messages are its history, even when the first render has none.
    if (messages.length === 0 && memory.current.lastId === undefined) return;
    const texts = finishedReplies(memory.current, messages);
    if (texts.length === 0) return;
    const added = texts.map((text) => ({ key: next.current++, text }));
    setSaid((current) => [...current, ...added]);
    const keys = new Set(added.map(({ key }) => key));
    const timer = window.setTimeout(() => {
      timers.current.delete(timer);
      setSaid((current) => current.filter(({ key }) => !keys.has(key)));
    }, HEARD_FOR_MS);
    timers.current.add(timer);
  }, [messages]);
  return (
    <div
      role="log"
      aria-live="polite"
      aria-relevant="additions"
      data-slot="chat-transcript-announcer"
      className={cn("sr-only", className)}
      {...props}
    >
      {said.map(({ key, text }) => (
        <p key={key} dir="auto">
          {text}
        </p>
      ))}
    </div>
  );
}

export { ChatTranscriptAnnouncer, emptyReplyMemory, finishedReplies, type ReplyMemory, speakable };
