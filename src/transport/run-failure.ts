import type { RunErrorCode } from "@/lib/prepick/core/frames";

/** Why a run failed, as the server said: a code to put in words, and the id support looks up. */
export interface RunFailure {
  /** The failure's code (`model-timeout`, `model-failed`…); a code this version does not know reads `internal`. */
  code: RunErrorCode;
  /** The id of the server's log line that holds the detail, when the server gave one. */
  errorId?: string;
}

const CODES: ReadonlySet<string> = new Set<RunErrorCode>([
  "model-timeout",
  "model-failed",
  "step-limit",
  "agent-changed",
  "agent-missing",
  "internal",
]);

const PREFIX = "prepick-run-failed";
const TEXT = /^prepick-run-failed ([a-z-]+)(?: (err-[\w-]{1,100}))?$/;

/**
 * The `errorText` of the AI SDK `error` chunk a failed run ends with, `prepick-run-failed <code>
 * <errorId>`: the AI SDK keeps only a chunk's text (`chat.error.message`), and a client turns it
 * back into the failure with {@link readRunFailure} to say it in its own words.
 */
export function runFailureText(failure: { code?: string | undefined; errorId?: string | undefined }): string {
  const code = failure.code !== undefined && CODES.has(failure.code) ? failure.code : "internal";
  return failure.errorId ? `${PREFIX} ${code} ${failure.errorId}` : `${PREFIX} ${code}`;
}

/** The run failure an error (the chat's `error`) carries, or undefined when it is another error. */
export function readRunFailure(error: Error | string | undefined): RunFailure | undefined {
  const text = typeof error === "string" ? error : error?.message;
  const match = text === undefined ? null : TEXT.exec(text);
  if (!match) return undefined;
  const code = (CODES.has(match[1] ?? "") ? match[1] : "internal") as RunErrorCode;
  return { code, ...(match[2] ? { errorId: match[2] } : {}) };
}
