import type { ElicitationFrame, Frame } from "@/lib/prepick/core/frames";
import type { InboxEvent, PendingCall, ThreadSummary } from "@/lib/prepick/core/inbox";
import { settleAnswers, settleSkipped } from "@/lib/prepick/core/outcome";
import type { Answers } from "@/lib/prepick/core/question";
import { specIntake } from "@/lib/prepick/core/spec-examples";

/** What the stand-in's agent says once its intake is answered. */
export const CONTINUATION = "Starting on the date helpers now, with your picks.";

interface Run {
  runId: string;
  threadId: string;
  messageId: string;
  frames: Frame[];
  listeners: Set<() => void>;
}

const encoder = new TextEncoder();

/** An event-stream response that `write` fills; it ends when `write` resolves or the reader leaves. */
function eventStream(
  write: (send: (text: string) => void, signal: AbortSignal) => Promise<void>,
  headers: Record<string, string> = {},
): Response {
  const abort = new AbortController();
  const body = new ReadableStream<Uint8Array>({
    async start(controller) {
      await write((text) => controller.enqueue(encoder.encode(text)), abort.signal);
      if (!abort.signal.aborted) controller.close();
    },
    cancel: () => abort.abort(),
  });
  return new Response(body, {
    status: 200,
    headers: { "content-type": "text/event-stream; charset=utf-8", ...headers },
  });
}

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });

/**
 * A stand-in for the reference server behind a `fetch`, speaking its wire (docs/protocol.md) for
 * one agent, the refactorer: `POST /agent/chat` streams its intake (`intake-<runId>`) and parks;
 * `POST /agent/tool-call/answer` and `/skip` settle it (400 for an unknown question, 409 once
 * settled) and the run goes on with a reply that `GET /agent/runs/:runId/stream` follows from
 * `Last-Event-ID`; `GET /agent/approvals/stream` is the live inbox feed; `GET /agent/threads`
 * and `GET /agent/threads/:threadId` read the conversations back. State lives in the closure.
 */
export function standInServer(): typeof fetch {
  const runs = new Map<string, Run>();
  const threads = new Map<
    string,
    { summary: ThreadSummary; user: { id: string; text: string }; runId: string }
  >();
  const pending = new Map<string, PendingCall>();
  const feeds = new Set<(event: InboxEvent, version: number) => void>();
  let version = 0;
  let count = 0;

  const publish = (event: InboxEvent) => {
    version++;
    for (const feed of feeds) feed(event, version);
  };
  const append = (run: Run, frames: Frame[]) => {
    run.frames.push(...frames);
    for (const listener of [...run.listeners]) listener();
  };
  const frameEvent = (seq: number, frame: Frame) => `id: ${seq}\ndata: ${JSON.stringify(frame)}\n\n`;
  const ends = (frame: Frame | undefined) => frame?.kind === "run-parked" || frame?.kind === "run-finish";

  /** The run's frames after `after`, live until it parks or finishes. */
  const follow = (run: Run, after: number, headers?: Record<string, string>) =>
    eventStream(async (send, signal) => {
      let next = after;
      for (;;) {
        while (next < run.frames.length) {
          const frame = run.frames[next] as Frame;
          next++;
          send(frameEvent(next, frame));
          if (ends(frame)) return;
        }
        if (signal.aborted) return;
        await new Promise<void>((resolve) => {
          const wake = () => {
            run.listeners.delete(wake);
            resolve();
          };
          run.listeners.add(wake);
          signal.addEventListener("abort", wake, { once: true });
        });
      }
    }, headers);

  const settle = (toolCallId: string, answers: Answers | undefined, skipped: boolean): Response => {
    const call = pending.get(toolCallId);
    const run = call ? runs.get(call.runId) : undefined;
    if (!call || !run || call.posted.kind !== "elicitation") {
      const known = [...runs.values()].some((each) =>
        each.frames.some((frame) => frame.kind === "tool-output" && frame.id === toolCallId),
      );
      return known
        ? json({ error: `tool call ${toolCallId} is already settled`, toolCallId, status: "answered" }, 409)
        : json({ error: `no tool call ${toolCallId}` }, 404);
    }
    const { questions } = call.posted.request;
    const unknown = Object.keys(answers ?? {}).find(
      (id) => !questions.some((question) => question.id === id),
    );
    if (unknown !== undefined) {
      return json(
        {
          error: "invalid answers",
          issues: [{ questionId: unknown, message: `answers["${unknown}"] is not asked` }],
        },
        400,
      );
    }
    const output = skipped ? settleSkipped(questions) : settleAnswers(questions, answers ?? {});
    pending.delete(toolCallId);
    append(run, [
      { kind: "tool-output", id: toolCallId, output },
      { kind: "text-start", id: "reply" },
      { kind: "text-delta", id: "reply", delta: CONTINUATION },
      { kind: "text-end", id: "reply" },
      { kind: "run-finish", status: "completed" },
    ]);
    publish({
      kind: "settled",
      id: toolCallId,
      threadId: run.threadId,
      status: skipped ? "skipped" : "answered",
    });
    return json({ toolCallId, status: skipped ? "skipped" : "answered", output });
  };

  return async (input, init) => {
    const url = new URL(
      typeof input === "string" ? input : input instanceof URL ? input.href : input.url,
      "http://stand-in",
    );
    const method = (init?.method ?? "GET").toUpperCase();
    const body = typeof init?.body === "string" ? (JSON.parse(init.body) as Record<string, unknown>) : {};
    const headers = new Headers(init?.headers);
    const path = url.pathname;

    if (method === "POST" && path === "/agent/chat") {
      const threadId = String(body.threadId ?? `thread-${++count}`);
      const message = body.message as { parts: { type: string; text?: string }[] };
      const text = message.parts.map((part) => part.text ?? "").join("");
      const n = ++count;
      const run: Run = {
        runId: `run-${n}`,
        threadId,
        messageId: `message-${n}`,
        frames: [],
        listeners: new Set(),
      };
      runs.set(run.runId, run);
      const askedAt = new Date().toISOString();
      threads.set(threadId, {
        summary: {
          id: threadId,
          agent: "refactorer",
          title: text.slice(0, 60),
          createdAt: askedAt,
          lastActiveAt: askedAt,
          waiting: 1,
        },
        user: { id: `user-${n}`, text },
        runId: run.runId,
      });
      const request = {
        source: "intake" as const,
        preamble: specIntake.preamble,
        questions: [...specIntake.questions],
      };
      const elicitation: ElicitationFrame = { kind: "elicitation", id: `intake-${run.runId}`, request };
      append(run, [
        { kind: "run-start", runId: run.runId, threadId, messageId: run.messageId, agent: "refactorer" },
        elicitation,
        { kind: "run-parked", waitingFor: [elicitation.id] },
      ]);
      const call: PendingCall = {
        id: elicitation.id,
        runId: run.runId,
        messageId: run.messageId,
        threadId,
        agent: "refactorer",
        name: "ask",
        toolType: "action",
        status: "pending_approval",
        input: request,
        askedAt,
        posted: { kind: "elicitation", id: elicitation.id, request },
      };
      pending.set(call.id, call);
      publish({ kind: "waiting", call });
      return follow(run, 0, { "x-run-id": run.runId, "x-thread-id": threadId });
    }
    if (method === "POST" && path === "/agent/tool-call/answer") {
      return settle(String(body.toolCallId), body.answers as Answers | undefined, false);
    }
    if (method === "POST" && path === "/agent/tool-call/skip")
      return settle(String(body.toolCallId), undefined, true);
    const runStream = path.match(/^\/agent\/runs\/([^/]+)\/stream$/);
    if (runStream) {
      const run = runs.get(decodeURIComponent(runStream[1] as string));
      if (!run) return json({ error: "no such run" }, 404);
      return follow(run, Number(headers.get("last-event-id") ?? url.searchParams.get("after") ?? 0));
    }
    if (path === "/agent/approvals/stream") {
      return eventStream(async (send, signal) => {
        for (const call of pending.values()) send(`data: ${JSON.stringify({ kind: "waiting", call })}\n\n`);
        send(`id: ${version}\ndata: ${JSON.stringify({ kind: "synced" })}\n\n`);
        const feed = (event: InboxEvent, at: number) => send(`id: ${at}\ndata: ${JSON.stringify(event)}\n\n`);
        feeds.add(feed);
        await new Promise((resolve) => signal.addEventListener("abort", resolve, { once: true }));
        feeds.delete(feed);
      });
    }
    if (path === "/agent/threads") {
      const list = [...threads.values()].map(({ summary }) => ({
        ...summary,
        waiting: [...pending.values()].filter((call) => call.threadId === summary.id).length,
      }));
      return json({ threads: list.reverse(), nextCursor: null });
    }
    const thread = path.match(/^\/agent\/threads\/([^/]+)$/);
    if (thread) {
      const stored = threads.get(decodeURIComponent(thread[1] as string));
      const run = stored ? runs.get(stored.runId) : undefined;
      if (!stored || !run) return json({ error: "no such thread" }, 404);
      const last = run.frames.at(-1);
      return json({
        threadId: stored.summary.id,
        agent: "refactorer",
        nextCursor: null,
        messages: [
          { id: stored.user.id, role: "user", parts: [{ type: "text", text: stored.user.text }] },
          {
            id: run.messageId,
            role: "assistant",
            runId: run.runId,
            status: last?.kind === "run-finish" ? "completed" : "parked",
            lastSeq: run.frames.length,
            frames: run.frames.map((frame, index) => ({ seq: index + 1, frame })),
          },
        ],
      });
    }
    return json({ error: `the stand-in has no ${method} ${path}` }, 404);
  };
}

/** A way to the server that can be cut and restored, as a lost network or a server gone down. */
export interface CuttableFetch {
  /** The fetch to give the block. */
  fetch: typeof fetch;
  /** From now on every request fails as fetch does offline, and every open stream breaks. */
  cut: () => void;
  /** Requests go through again. */
  restore: () => void;
}

/** Wraps `inner` (a stand-in server) in a connection the story can cut and restore. */
export function cuttableFetch(inner: typeof fetch): CuttableFetch {
  let reachable = true;
  const open = new Set<{
    controller: ReadableStreamDefaultController<Uint8Array>;
    reader: ReadableStreamDefaultReader<Uint8Array>;
  }>();
  const cutFetch: typeof fetch = async (input, init) => {
    if (!reachable) throw new TypeError("Failed to fetch");
    const response = await inner(input, init);
    if (!response.body) return response;
    const reader = response.body.getReader();
    let stream: { controller: ReadableStreamDefaultController<Uint8Array>; reader: typeof reader };
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        stream = { controller, reader };
        open.add(stream);
      },
      async pull(controller) {
        const { done, value } = await reader.read();
        if (!open.has(stream)) return;
        if (done) {
          open.delete(stream);
          controller.close();
        } else controller.enqueue(value);
      },
      cancel(reason) {
        open.delete(stream);
        return reader.cancel(reason);
      },
    });
    return new Response(body, { status: response.status, headers: response.headers });
  };
  return {
    fetch: cutFetch,
    cut() {
      reachable = false;
      for (const stream of open) {
        stream.controller.error(new TypeError("network error"));
        void stream.reader.cancel();
      }
      open.clear();
    },
    restore() {
      reachable = true;
    },
  };
}
