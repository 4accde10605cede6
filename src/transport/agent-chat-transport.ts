import type { ChatTransport, UIMessage, UIMessageChunk } from "ai";
import type { SequencedFrame } from "@/lib/prepick/core/frames";
import { requestHeaders, textOf } from "./chat-request";
import type { ConversationTransport, RunStatus } from "./conversation-transport";
import { type FoldState, foldFrame, foldFrames, INITIAL_FOLD_STATE } from "./fold-frames";
import { hydrateThread } from "./hydrate-thread";
import { endsStream, readFrames } from "./read-frames";
import { replayThenFollow } from "./replay-then-follow";
import { readFailure, ToolCallClient, type ToolCallClientOptions } from "./tool-call-client";
import { ToolCallError } from "./tool-call-error";

/** How {@link AgentChatTransport} reaches the server, and which agent it talks to. */
export interface AgentChatTransportOptions extends ToolCallClientOptions {
  /** The agent to run; the server's default when left out. */
  agent?: string;
}

/** What the transport remembers about a chat's latest run, to resume it. */
export interface RunRecord {
  /** The run. */
  runId: string;
  /** Every frame seen so far, in order. */
  frames: SequencedFrame[];
  /** The fold after those frames. */
  fold: FoldState;
}

type SendOptions = Parameters<ChatTransport<UIMessage>["sendMessages"]>[0];
type ReconnectOptions = Parameters<ChatTransport<UIMessage>["reconnectToStream"]>[0];

/** The frames of a response whose first frame was read already, that one first. */
function withFirst(
  first: SequencedFrame,
  rest: ReadableStreamDefaultReader<SequencedFrame>,
): ReadableStream<SequencedFrame> {
  return new ReadableStream({
    start(controller) {
      controller.enqueue(first);
    },
    async pull(controller) {
      const next = await rest.read();
      if (next.done) controller.close();
      else controller.enqueue(next.value);
    },
    cancel(reason) {
      return rest.cancel(reason);
    },
  });
}

async function errorOf(response: Response): Promise<ToolCallError> {
  return new ToolCallError(readFailure(response.status, await response.json().catch(() => undefined)));
}

/**
 * An AI SDK `ChatTransport` for the Prepick reference server. It turns the server's frames into
 * `UIMessageChunk`s (one tool part per question set, however many responses it spans), resumes
 * a run from the last sequence number it saw, and carries the tool-call endpoints as `client`.
 * The chat id is the server's thread id.
 */
export class AgentChatTransport implements ConversationTransport {
  /**
   * A reconnect rebuilds the whole assistant message: the frames seen before are folded again
   * (locally, not re-fetched) ahead of the new ones, so the message never loses a part.
   */
  readonly resumeStreamIsReplay = true;
  /** The client for answer, skip, approve, reject, cancel and thread reads. */
  readonly client: ToolCallClient;
  private readonly agent: string | undefined;
  private readonly runs = new Map<string, RunRecord>();
  // Each loaded chat's cursor to the turns before the oldest one loaded; null when none remain.
  private readonly olderCursors = new Map<string, string | null>();

  /** A transport for the server at `options.api` (the page's origin by default). */
  constructor(options: AgentChatTransportOptions = {}) {
    this.client = new ToolCallClient(options);
    this.agent = options.agent;
  }

  /** The latest run the transport knows for a chat. */
  run(chatId: string): RunRecord | undefined {
    return this.runs.get(chatId);
  }

  /** Where the chat's latest run stands, as its frames seen so far tell. */
  runStatus(chatId: string): RunStatus | undefined {
    return this.runs.get(chatId)?.fold.status;
  }

  /** Cancels the chat's latest run on the server (`POST /agent/runs/:runId/cancel`); whatever it waits on is denied. */
  async cancel(chatId: string): Promise<void> {
    const runId = this.runs.get(chatId)?.runId;
    if (runId) await this.client.cancel(runId);
  }

  /**
   * Loads a stored thread's latest turns as AI SDK messages (empty when it does not exist yet)
   * and remembers its latest run, so `resumeStream()` can follow it. Pass the result as the chat's
   * `messages`; `hasOlder` then tells whether `loadOlder` has more to give.
   */
  async loadThread(chatId: string, options: { limit?: number } = {}): Promise<UIMessage[]> {
    const response = await this.client.thread(chatId, options);
    if (!response.ok) {
      if (response.failure.kind === "not-found") {
        this.olderCursors.set(chatId, null);
        return [];
      }
      throw new ToolCallError(response.failure);
    }
    const thread = response.result;
    for (const message of thread.messages) {
      if (message.role !== "assistant") continue;
      const frames = [...message.frames].sort((a, b) => a.seq - b.seq);
      this.runs.set(chatId, { runId: message.runId, frames, fold: foldFrames(frames).state });
    }
    this.olderCursors.set(chatId, thread.nextCursor ?? null);
    return hydrateThread(thread);
  }

  /** Whether the server holds turns of a loaded chat older than those loaded so far. */
  hasOlder(chatId: string): boolean {
    return typeof this.olderCursors.get(chatId) === "string";
  }

  /**
   * Loads the page of turns before the oldest loaded one, as AI SDK messages to put before the
   * chat's messages; empty when there are none. The chat's latest run stays the one followed.
   */
  async loadOlder(chatId: string, options: { limit?: number } = {}): Promise<UIMessage[]> {
    const cursor = this.olderCursors.get(chatId);
    if (typeof cursor !== "string") return [];
    const response = await this.client.thread(chatId, { ...options, cursor });
    if (!response.ok) throw new ToolCallError(response.failure);
    this.olderCursors.set(chatId, response.result.nextCursor ?? null);
    return hydrateThread(response.result);
  }

  /** Sends the person's message and streams the run; or, after approval responses, sends them and follows. */
  async sendMessages(options: SendOptions): Promise<ReadableStream<UIMessageChunk>> {
    const last = options.messages.at(-1);
    if (last?.role === "assistant") return this.sendApprovals(options, last);
    if (options.trigger === "regenerate-message" || last === undefined) {
      throw new Error(
        "AgentChatTransport: the reference server cannot regenerate a message; send a new one.",
      );
    }
    const response = await this.client.fetch("/agent/chat", {
      method: "POST",
      headers: { "content-type": "application/json", ...requestHeaders(options) },
      body: JSON.stringify({
        agent: this.agent,
        ...options.body,
        threadId: options.chatId,
        message: { id: last.id, role: "user", parts: [{ type: "text", text: textOf(last) }] },
      }),
      signal: options.abortSignal,
    });
    if (!response.ok || response.body === null) throw await errorOf(response);
    const record: RunRecord = {
      runId: response.headers.get("x-run-id") ?? "",
      frames: [],
      fold: INITIAL_FOLD_STATE,
    };
    this.runs.set(options.chatId, record);
    return this.stream(record, [], readFrames(response.body));
  }

  /**
   * Follows the chat's latest run from the last sequence number seen. Resolves `null` when the run
   * has ended, or when it is parked and nothing new arrives (the person has not acted yet).
   */
  async reconnectToStream(options: ReconnectOptions): Promise<ReadableStream<UIMessageChunk> | null> {
    const record = this.runs.get(options.chatId);
    if (!record?.runId || !["running", "parked"].includes(record.fold.status)) return null;
    const { response, after } = await this.follow(record, options);
    if (response.status === 204 || response.status === 404) return null;
    if (!response.ok || response.body === null) throw await errorOf(response);
    const frames = readFrames(response.body, after).getReader();
    const first = await frames.read();
    if (first.done) return null;
    // Replay what was seen so the message is rebuilt whole, then continue with the live frames.
    return this.stream(record, foldFrames(record.frames).chunks, withFirst(first.value, frames));
  }

  private async sendApprovals(
    options: SendOptions,
    last: UIMessage,
  ): Promise<ReadableStream<UIMessageChunk>> {
    const record = this.runs.get(options.chatId);
    if (!record) throw new Error(`AgentChatTransport: no run is known for chat "${options.chatId}".`);
    for (const part of last.parts) {
      if (!("approval" in part) || part.state !== "approval-responded" || !part.approval) continue;
      if (!record.fold.approvals.includes(part.approval.id)) continue;
      const result = part.approval.approved
        ? await this.client.approve(part.approval.id)
        : await this.client.reject(part.approval.id, part.approval.reason);
      if (!result.ok && result.failure.kind !== "conflict") throw new ToolCallError(result.failure);
    }
    const { response, after } = await this.follow(record, options);
    if (!response.ok || response.body === null) throw await errorOf(response);
    return this.stream(record, [], readFrames(response.body, after));
  }

  /**
   * Requests the run's frames after the last stored one the record holds. Frames a model call
   * streamed before they were stored are dropped first: the call may have been cut short and made
   * again, and its stored frames come back whole.
   */
  private async follow(
    record: RunRecord,
    options: ReconnectOptions,
  ): Promise<{ response: Response; after: number }> {
    if (record.frames.some((frame) => frame.unstored)) {
      record.frames = record.frames.filter((frame) => !frame.unstored);
      record.fold = foldFrames(record.frames).state;
    }
    const after = record.fold.lastSeq;
    const response = await this.client.fetch(
      `/agent/runs/${encodeURIComponent(record.runId)}/stream?after=${after}`,
      {
        headers: { "last-event-id": String(after), ...requestHeaders(options) },
        signal: options.abortSignal,
      },
    );
    return { response, after };
  }

  /** The response: `replay`, then the frames folded into the run's record until the run parks or ends. */
  private stream(
    record: RunRecord,
    replay: readonly UIMessageChunk[],
    frames: ReadableStream<SequencedFrame>,
  ): ReadableStream<UIMessageChunk> {
    return replayThenFollow(replay, frames, {
      fold(frame) {
        // A stored frame says the frames streamed before it are stored too, with the numbers they took.
        if (!frame.unstored) {
          for (let at = record.frames.length - 1; at >= 0 && record.frames[at]?.unstored; at--) {
            const held = record.frames[at] as SequencedFrame;
            record.frames[at] = { seq: held.seq, frame: held.frame };
          }
        }
        const { state, chunks } = foldFrame(record.fold, frame);
        if (state !== record.fold) record.frames.push(frame);
        record.fold = state;
        return { chunks, end: endsStream(frame.frame) };
      },
    });
  }
}
