import type { AnswerIssue } from "@/lib/prepick/core/answers";

/** Why the server refused or could not take an answer, skip, approval, rejection or cancel. */
export type ToolCallFailure =
  | {
      /** 400: the answers broke the questions' rules; `issues` names each question. */
      kind: "invalid";
      /** The HTTP status. */
      status: 400;
      /** The server's one-line error. */
      error: string;
      /** One issue per refused answer, each naming its question. */
      issues: AnswerIssue[];
    }
  | {
      /** 404: no such tool call, or the acting person does not own it. */
      kind: "not-found";
      /** The HTTP status. */
      status: 404;
      /** The server's one-line error. */
      error: string;
    }
  | {
      /** 409: the tool call was already settled; `output` is what it settled with. */
      kind: "conflict";
      /** The HTTP status. */
      status: 409;
      /** The server's one-line error. */
      error: string;
      /** The settled tool call. */
      toolCallId: string;
      /** The stored status of the tool call. */
      toolStatus: string;
      /** The stored output (for a question set, its outcome). */
      output: unknown;
    }
  | {
      /** The request never got an answer the client understands: offline, a 5xx, a bad body. */
      kind: "network";
      /** The HTTP status, when a response arrived. */
      status?: number;
      /** What went wrong, for a person. */
      error: string;
    };

/** A {@link ToolCallFailure} thrown as an Error, so callbacks can reject with a typed reason. */
export class ToolCallError extends Error {
  /** The typed reason. */
  readonly failure: ToolCallFailure;

  /** Wraps a failure; the message is the server's error line. */
  constructor(failure: ToolCallFailure) {
    super(failure.error);
    this.name = "ToolCallError";
    this.failure = failure;
  }
}

/** What a thrown value says: an Error's message, or the value as text. */
export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Reads any thrown value as a {@link ToolCallFailure}: a ToolCallError keeps its reason, anything else is `network`. */
export function toToolCallFailure(error: unknown): ToolCallFailure {
  if (error instanceof ToolCallError) return error.failure;
  return { kind: "network", error: messageOf(error) || "the request failed" };
}
