import type { AnswerIssue } from "@/lib/prepick/core/answers";
import type { SequencedFrame } from "@/lib/prepick/core/frames";
import type { CallView, Page, PendingCall, ThreadSummary } from "@/lib/prepick/core/inbox";
import type { Answers } from "@/lib/prepick/core/question";
import type { RunStatus } from "./conversation-transport";
import { messageOf, type ToolCallFailure } from "./tool-call-error";

/** How the client reaches the reference server. */
export interface ToolCallClientOptions {
  /** The server's origin and base path, e.g. `http://localhost:3000`; empty for the page's own origin. */
  api?: string;
  /** Sent as `x-actor-id`: who is acting (local authentication). */
  actorId?: string;
  /** Extra headers on every request, or a function that returns them. */
  headers?: Record<string, string> | (() => Record<string, string>);
  /**
   * Cookie policy; `include` by default, so the server's actor cookie travels to a server on
   * another origin too (which must allow the page's origin: `PREPICK_CORS_ORIGINS`).
   */
  credentials?: RequestCredentials;
  /** A fetch to use instead of the global one. */
  fetch?: typeof fetch;
}

/** A settled tool call, as the server answers a successful answer, skip, approve or reject. */
export interface ToolCallResult {
  /** The tool call. */
  toolCallId: string;
  /** Its stored status after the call. */
  status: string;
  /** Its output (for a question set, the outcome). */
  output: unknown;
}

/** Either the server's result or a typed failure. */
export type ToolCallResponse<T = ToolCallResult> =
  | { ok: true; result: T }
  | { ok: false; failure: ToolCallFailure };

/** A user message of a stored thread. */
export interface ThreadUserMessage {
  /** The message id. */
  id: string;
  /** Always `user`. */
  role: "user";
  /** The message's parts (text parts). */
  parts: { type: "text"; text: string }[];
}

/** An assistant message of a stored thread: one run, as the frames it wrote. */
export interface ThreadAssistantMessage {
  /** The assistant message id (the same on every continuation of the run). */
  id: string;
  /** Always `assistant`. */
  role: "assistant";
  /** The run that wrote it. */
  runId: string;
  /** Where the run stands. */
  status: RunStatus;
  /** The highest sequence number stored. */
  lastSeq: number;
  /** Every frame of the run, in order. */
  frames: SequencedFrame[];
}

/** `GET /agent/threads/:threadId`: a thread's messages, for hydrating a reloaded page. */
export interface ThreadResponse {
  /** The thread. */
  threadId: string;
  /** The agent that runs in it. */
  agent: string;
  /** The page's messages in order: the latest turns on the first page, older ones by cursor. */
  messages: (ThreadUserMessage | ThreadAssistantMessage)[];
  /** Reads the turns before this page (`thread(id, { cursor })`); null when there are none. */
  nextCursor?: string | null;
}

/** Which page of a list: the `nextCursor` an earlier page returned, and how many rows. */
export interface PageRequest {
  /** Left out for the first page. */
  cursor?: string;
  /** Rows per page: 1 to 200, 50 by default. */
  limit?: number;
}

/** `GET /agent/approvals`: a page of the actor's waiting calls, oldest first. */
export interface ApprovalsPage extends Page {
  /** The waiting calls. */
  approvals: PendingCall[];
}

/** `GET /agent/threads`: a page of the actor's conversations, newest activity first. */
export interface ThreadsPage extends Page {
  /** The conversations. */
  threads: ThreadSummary[];
}

function pageQuery({ cursor, limit }: PageRequest): string {
  const query = new URLSearchParams();
  if (cursor !== undefined) query.set("cursor", cursor);
  if (limit !== undefined) query.set("limit", String(limit));
  const text = query.toString();
  return text === "" ? "" : `?${text}`;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function text(value: unknown, fallback: string): string {
  return typeof value === "string" && value !== "" ? value : fallback;
}

/** Reads a non-2xx response body as the typed failure its status means. */
export function readFailure(status: number, body: unknown): ToolCallFailure {
  const record = isRecord(body) ? body : {};
  const error = text(record.error, `The server answered ${status}.`);
  if (status === 400) {
    const issues = Array.isArray(record.issues) ? (record.issues as AnswerIssue[]) : [];
    return { kind: "invalid", status, error, issues };
  }
  if (status === 404) return { kind: "not-found", status, error };
  if (status === 409) {
    return {
      kind: "conflict",
      status,
      error,
      toolCallId: text(record.toolCallId, ""),
      toolStatus: text(record.status, ""),
      output: record.output,
    };
  }
  return { kind: "network", status, error };
}

/**
 * Per server: the first request's answer, while it is on its way. A page without an actor cookie
 * yet is issued one by its first answer; two requests sent before it (the inbox feed, the
 * conversation list, the thread) would each be issued a different actor, and the feed would follow
 * someone else's inbox. So the page's other requests wait for that first answer's headers.
 */
const firstAnswers = new Map<string, Promise<void>>();

/** The client side of the reference server's endpoints: every call returns a result or a typed failure. */
export class ToolCallClient {
  private readonly options: ToolCallClientOptions;

  /** A client for the server at `options.api`. */
  constructor(options: ToolCallClientOptions = {}) {
    this.options = options;
  }

  /** Whether the client was given its own `fetch` (a test's or an app's), not the page's. */
  get hasOwnFetch(): boolean {
    return this.options.fetch !== undefined;
  }

  /** The full URL of a server path. */
  url(path: string): string {
    return `${(this.options.api ?? "").replace(/\/$/, "")}${path}`;
  }

  /** The headers every request carries: the configured ones and the actor. */
  headers(extra?: Record<string, string>): Record<string, string> {
    const configured =
      typeof this.options.headers === "function" ? this.options.headers() : this.options.headers;
    return {
      ...configured,
      ...(this.options.actorId !== undefined ? { "x-actor-id": this.options.actorId } : {}),
      ...extra,
    };
  }

  /** Performs a request with the configured fetch, credentials and headers. */
  fetch(path: string, init: RequestInit & { headers?: Record<string, string> } = {}): Promise<Response> {
    const fetcher = this.options.fetch ?? globalThis.fetch;
    const credentials = this.options.credentials ?? "include";
    const send = () => fetcher(this.url(path), { ...init, credentials, headers: this.headers(init.headers) });
    // A header names the actor, or no cookie travels: there is no cookie to wait for.
    if (this.options.actorId !== undefined || credentials === "omit" || this.hasOwnFetch) return send();
    const server = this.url("");
    const first = firstAnswers.get(server);
    if (first) return first.then(send);
    const response = send();
    firstAnswers.set(
      server,
      response.then(
        () => {},
        // A first request that failed issued nothing: the next one goes first.
        () => {
          firstAnswers.delete(server);
        },
      ),
    );
    return response;
  }

  // Every endpoint answers the same way: JSON on success, a typed failure otherwise.
  private async read<T>(
    path: string,
    init?: RequestInit & { headers?: Record<string, string> },
  ): Promise<ToolCallResponse<T>> {
    let response: Response;
    try {
      response = await this.fetch(path, init);
    } catch (error) {
      const failure = { kind: "network", error: `Could not reach the server: ${messageOf(error)}` } as const;
      return { ok: false, failure };
    }
    const json: unknown = await response.json().catch(() => undefined);
    return response.ok
      ? { ok: true, result: json as T }
      : { ok: false, failure: readFailure(response.status, json) };
  }

  private call<T>(path: string, body: Record<string, unknown> = {}): Promise<ToolCallResponse<T>> {
    return this.read(path, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });
  }

  /** Answers a question set; left-out questions take their defaults on the server. */
  answer(toolCallId: string, answers?: Answers): Promise<ToolCallResponse> {
    return this.call("/agent/tool-call/answer", { toolCallId, answers });
  }

  /** Skips a question set: the agent proceeds on its own picks. */
  skip(toolCallId: string): Promise<ToolCallResponse> {
    return this.call("/agent/tool-call/skip", { toolCallId });
  }

  /**
   * Approves a tool call waiting for approval. For a call whose input is editable, `answers` are
   * the person's edits to its fields (left-out fields keep the model's proposal); the output is
   * then `{ input, edited }`.
   */
  approve(toolCallId: string, answers?: Answers): Promise<ToolCallResponse> {
    return this.call("/agent/tool-call/approve", { toolCallId, answers });
  }

  /** Rejects a tool call waiting for approval, with an optional reason for the model. */
  reject(toolCallId: string, reason?: string): Promise<ToolCallResponse> {
    return this.call("/agent/tool-call/reject", { toolCallId, reason });
  }

  /** Cancels a run; whatever it waits on is denied. */
  cancel(runId: string): Promise<ToolCallResponse<Record<string, unknown>>> {
    return this.call(`/agent/runs/${encodeURIComponent(runId)}/cancel`);
  }

  /** A page of the actor's waiting calls. */
  approvals(page: PageRequest = {}): Promise<ToolCallResponse<ApprovalsPage>> {
    return this.read(`/agent/approvals${pageQuery(page)}`);
  }

  /**
   * One call of the actor's, as its deep link shows it: waiting, or what became of it; a
   * `not-found` failure for a call that is not theirs.
   */
  toolCall(toolCallId: string): Promise<ToolCallResponse<CallView>> {
    return this.read(`/agent/tool-calls/${encodeURIComponent(toolCallId)}`);
  }

  /**
   * Keeps what the person typed into a waiting question set on the server, for their other
   * devices (the call's deep link reads it back). Never an answer: only `answer` and `skip` settle.
   */
  saveDraft(toolCallId: string, draft: { values: Answers; index: number }): Promise<ToolCallResponse> {
    return this.call(`/agent/tool-calls/${encodeURIComponent(toolCallId)}/draft`, { ...draft });
  }

  /** A page of the actor's conversations. */
  threads(page: PageRequest = {}): Promise<ToolCallResponse<ThreadsPage>> {
    return this.read(`/agent/threads${pageQuery(page)}`);
  }

  /**
   * Reads a page of a stored thread (its latest turns, or those before `cursor`), or a failure
   * (`not-found` for a thread that does not exist yet).
   */
  thread(threadId: string, page: PageRequest = {}): Promise<ToolCallResponse<ThreadResponse>> {
    return this.read(`/agent/threads/${encodeURIComponent(threadId)}${pageQuery(page)}`);
  }
}

/**
 * What a transcript needs to settle tool calls: answer, skip, approve and reject, each answering
 * with the settled output or a typed failure. `ToolCallClient` and `AgUiToolCallClient` both fit.
 */
export type ToolCallActions = Pick<ToolCallClient, "answer" | "skip" | "approve" | "reject">;
