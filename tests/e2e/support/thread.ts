import type { Page } from "playwright-core";

/** A stored frame as `GET /agent/threads/:threadId` returns it. */
export interface StoredFrame {
  /** The frame's sequence number in its run. */
  seq: number;
  /** The frame itself. */
  frame: { kind: string; [key: string]: unknown };
}

/** A thread's messages as the server stores them (assistant messages carry their run's frames). */
export interface StoredThread {
  /** The thread. */
  threadId: string;
  /** User messages, and one assistant message per run. */
  messages: { role: string; runId?: string; status?: string; frames?: StoredFrame[] }[];
}

/**
 * Reads a thread through the page itself, so the request carries the page's own actor cookie:
 * what the server holds for the person looking at the page.
 */
export async function readThread(page: Page, threadId: string): Promise<StoredThread> {
  return page.evaluate(async (id) => {
    const response = await fetch(`/agent/threads/${encodeURIComponent(id)}`, { credentials: "same-origin" });
    if (!response.ok) throw new Error(`GET /agent/threads/${id} answered ${response.status}`);
    return (await response.json()) as StoredThread;
  }, threadId);
}

/** The kinds of every frame of the thread's assistant messages, in order. */
export async function frameKinds(page: Page, threadId: string): Promise<string[]> {
  const thread = await readThread(page, threadId);
  return thread.messages.flatMap((message) => (message.frames ?? []).map(({ frame }) => frame.kind));
}
