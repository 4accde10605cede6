import type { RunErrorCode } from "prepick/core";
import { logError } from "../log";
import { JournalMismatchError } from "./journal";

/** A model call that did not finish within its agent's time limit. */
export class ModelTimeoutError extends Error {
  /** @param ms The time limit it ran past. */
  constructor(readonly ms: number) {
    super(`The model call did not finish within ${ms} ms.`);
    this.name = "ModelTimeoutError";
  }
}

/** A model call its provider failed or refused; the provider's own error is the cause. */
export class ModelCallError extends Error {
  /** @param cause The provider's error, for the server log only. */
  constructor(cause: unknown) {
    super(`The model call failed: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
    this.name = "ModelCallError";
  }
}

/** A turn that made more model calls than it may. */
export class StepLimitError extends Error {
  /** @param steps How many model calls it made. */
  constructor(steps: number) {
    super(
      `The turn made ${steps} model calls without an answer; it stops so a looping model cannot run forever.`,
    );
    this.name = "StepLimitError";
  }
}

/** A run whose agent this server does not host. */
export class AgentMissingError extends Error {
  /** @param agent The agent's name. */
  constructor(agent: string) {
    super(`The agent "${agent}" is not configured on this server, so the run cannot go on.`);
    this.name = "AgentMissingError";
  }
}

/** What a person reads of each failure: sentences that hold no provider's or database's text. */
export const RUN_ERROR_SENTENCES: Readonly<Record<RunErrorCode, string>> = {
  "model-timeout": "The model did not answer in time, so the reply stopped.",
  "model-failed": "The model could not answer, so the reply stopped.",
  "step-limit": "The agent kept working without reaching an answer, so the reply stopped.",
  "agent-changed": "The agent was changed while it worked on this reply, so the reply stopped.",
  "agent-missing": "This conversation's agent is no longer available.",
  internal: "Something went wrong on the server, so the reply stopped.",
};

/** A run's failure as it is stored and streamed: a code, its sentence and the id of its log line. */
export interface RunFailure {
  /** The failure's code. */
  code: RunErrorCode;
  /** The sentence a person reads. */
  error: string;
  /** The id the server's log line carries. */
  errorId: string;
}

function codeOf(error: unknown): RunErrorCode {
  if (error instanceof ModelTimeoutError) return "model-timeout";
  if (error instanceof ModelCallError) return "model-failed";
  if (error instanceof StepLimitError) return "step-limit";
  if (error instanceof JournalMismatchError) return "agent-changed";
  if (error instanceof AgentMissingError) return "agent-missing";
  return "internal";
}

/**
 * Turns the error a run failed with into what its `run-finish` frame carries, and writes the
 * error's own text (a provider's message, a database's) to the server log only, under the id the
 * frame carries.
 */
export function runFailure(runId: string, error: unknown): RunFailure {
  const code = codeOf(error);
  const errorId = logError("run failed", error, { runId, code });
  return { code, error: RUN_ERROR_SENTENCES[code], errorId };
}
