import type { UIMessage } from "ai";
import type { AnswerIssue } from "@/lib/prepick/core/answers";
import type {
  Answers,
  ElicitationOutcome,
  ElicitationRequest,
  ElicitationSource,
  Option,
  Question,
  QuestionInput,
} from "@/lib/prepick/core/question";

/**
 * The answer state machine. `idle` → `submitting` → `settled`; or → `rejected` (a 400, its issues
 * placed on the questions they name) and back to `idle` when the person edits; or → `failed` (the
 * request never got through) and `retry` submits the same answers again.
 */
export type AnswerState =
  | {
      /** Nothing sent yet, or the person is fixing a refused answer. */
      status: "idle";
    }
  | {
      /** The answers are on their way. */
      status: "submitting";
      /** Exactly what was sent: only the questions the person touched. */
      answers: Answers;
    }
  | {
      /** The server (or local validation) refused the answers. */
      status: "rejected";
      /** One line for the whole form. */
      error: string;
      /** The refused answers, each naming its question. */
      issues: AnswerIssue[];
    }
  | {
      /** The request failed before the server could judge it (offline, 5xx). */
      status: "failed";
      /** What went wrong, for a person. */
      error: string;
      /** What `retry` sends again. */
      answers: Answers;
    }
  | {
      /** The question set is settled. */
      status: "settled";
      /** How it settled. */
      outcome: ElicitationOutcome;
      /** True when the server said it was already settled (a double submit, another tab). */
      conflict: boolean;
    };

/** What can happen to the answer state machine; {@link AnswerState} lists where each leads. */
export type AnswerEvent =
  | { type: "submit"; answers: Answers }
  | { type: "succeed"; outcome: ElicitationOutcome }
  | { type: "conflict"; outcome: ElicitationOutcome }
  | { type: "reject"; error: string; issues: AnswerIssue[] }
  | { type: "fail"; error: string }
  | { type: "retry" }
  | { type: "edit" }
  | { type: "settle"; outcome: ElicitationOutcome };

/**
 * The skip state machine. `idle` → `submitting` → `settled`; or → `rejected` (the server refused,
 * e.g. a 404) or → `failed` (the request never got through), from which `retry` skips again and
 * `dismiss` returns to `idle`.
 */
export type SkipState =
  | {
      /** Not skipped. */
      status: "idle";
    }
  | {
      /** The skip is on its way. */
      status: "submitting";
    }
  | {
      /** The server refused the skip. */
      status: "rejected";
      /** Why, for a person. */
      error: string;
    }
  | {
      /** The request failed before the server could judge it. */
      status: "failed";
      /** What went wrong, for a person. */
      error: string;
    }
  | {
      /** The question set is settled (by this skip, or already by something else). */
      status: "settled";
      /** How it settled. */
      outcome: ElicitationOutcome;
      /** True when the server said it was already settled. */
      conflict: boolean;
    };

/** What can happen to the skip state machine; {@link SkipState} lists where each leads. */
export type SkipEvent =
  | { type: "skip" }
  | { type: "succeed"; outcome: ElicitationOutcome }
  | { type: "conflict"; outcome: ElicitationOutcome }
  | { type: "reject"; error: string }
  | { type: "fail"; error: string }
  | { type: "retry" }
  | { type: "dismiss" }
  | { type: "settle"; outcome: ElicitationOutcome };

/** One question as the form renders it: its definition, its current value and its error. */
export interface ElicitationQuestionState {
  /** The question's id; the key of the answers. */
  id: string;
  /** Its position in the set, from 0 ("Question 1 of 3" is `index + 1`). */
  index: number;
  /** The question itself. */
  prompt: string;
  /** A line of help under the prompt. */
  description?: string;
  /** The choices (empty for a typed question without options). */
  options: readonly Option[];
  /** The typed input, when the question asks for a value. */
  input?: QuestionInput;
  /** Whether more than one value may be chosen. */
  multiple: boolean;
  /** Whether a value outside the options is accepted. */
  allowFreeText: boolean;
  /** Whether the question needs an answer or a default. */
  required: boolean;
  /** The pre-picked answer: what the agent would choose. */
  defaults: readonly string[];
  /** The current canonical values: what the person set, or the defaults while untouched. */
  value: readonly string[];
  /** Whether the person changed this question; only touched questions are submitted. */
  touched: boolean;
  /** The first problem with this question (a server issue, else a local rule), or undefined. */
  error?: string;
  /** Every problem with this question. */
  issues: readonly AnswerIssue[];
  /** The question's full definition. */
  question: Question;
  /** Sets the value from raw input (one value or an array), coerced with `coerceAnswer`. */
  setValue: (raw: unknown) => void;
  /** Adds or removes one value (checkboxes); on a single-value question, picks it. */
  toggle: (value: string) => void;
  /** Back to the pre-picked defaults, untouched. */
  reset: () => void;
}

/** One settled answer as a person reads it. */
export interface SettledAnswer {
  /** The question's id. */
  questionId: string;
  /** The question. */
  prompt: string;
  /** The canonical values. */
  values: readonly string[];
  /** The values as labels (`This file`, `Yes`), in the same order. */
  labels: readonly string[];
  /** True when the person did not touch it and its defaults stood. */
  defaulted: boolean;
}

/** A settled question set, ready to show: answers by label, defaulted ones, whether skipped. */
export interface ElicitationSettled {
  /** The outcome the server (or the local settle) recorded. */
  outcome: ElicitationOutcome;
  /** True when the person skipped. */
  skipped: boolean;
  /** One entry per question, in order. */
  answers: readonly SettledAnswer[];
}

/** Where a question set stands. `dismissed`: its run was cancelled before anyone answered. */
export type ElicitationPhase = "pending" | "settled" | "dismissed";

/** Everything a form reads about a question set at one moment. */
export interface ElicitationSnapshot {
  /** Pending, settled or dismissed. */
  phase: ElicitationPhase;
  /** The questions with their current values and errors. */
  questions: readonly ElicitationQuestionState[];
  /**
   * True when submitting now would pass every rule (the server resolves defaults). False, with no
   * error shown, while a question's pattern waits for the pattern engine to arrive.
   */
  isValid: boolean;
  /** The current question, for one-at-a-time UIs. */
  index: number;
  /** The answer state machine. */
  answer: AnswerState;
  /** The skip state machine. */
  skip: SkipState;
  /** True while an answer or a skip is on its way. */
  busy: boolean;
  /** The outcome, once settled. */
  settled?: ElicitationSettled;
}

/**
 * A vanilla store for one question set. Subscribe to the whole snapshot, or to one question so
 * a keystroke re-renders that question only (see `useElicitationQuestion`).
 */
export interface ElicitationStore {
  /** The current snapshot; the same object until something changes. */
  getSnapshot: () => ElicitationSnapshot;
  /** Calls `listener` on every change; returns the unsubscribe. */
  subscribe: (listener: () => void) => () => void;
  /** One question's state; the same object until that question changes. */
  getQuestion: (questionId: string) => ElicitationQuestionState | undefined;
  /** Calls `listener` when that question changes; returns the unsubscribe. */
  subscribeQuestion: (questionId: string, listener: () => void) => () => void;
  /** Sets a question's value from raw input, coerced with `coerceAnswer`. */
  setValue: (questionId: string, raw: unknown) => void;
  /** Adds or removes one value of a question. */
  toggle: (questionId: string, value: string) => void;
  /** Puts a question back to its defaults, untouched. */
  reset: (questionId: string) => void;
  /** Moves the one-at-a-time cursor (clamped to the questions). */
  setIndex: (index: number) => void;
  /** Submits the touched questions; the server resolves the rest from their defaults. */
  submit: () => Promise<void>;
  /** Skips: the agent proceeds on its own picks. */
  skip: () => Promise<void>;
  /** Retries whichever machine failed (answer or skip). */
  retry: () => Promise<void>;
  /** Settles from outside (a stream frame, another tab): both machines go to `settled`. */
  settle: (outcome: ElicitationOutcome) => void;
  /** Marks the set dismissed (its run was cancelled before an answer). */
  dismiss: () => void;
}

/** A question set in the transcript: what was asked, plus its store and state machines. */
export interface ElicitationBlock extends ElicitationStore {
  /** Discriminates transcript blocks. */
  type: "elicitation";
  /** The tool call id (`intake-<runId>` for an intake). */
  id: string;
  /** The assistant message it appeared in, when it came from a chat. */
  messageId?: string;
  /** Whether a configured intake or the model's `ask` posted it. */
  source: ElicitationSource;
  /** Said once above the questions. */
  preamble?: string;
  /** The request as posted. */
  request: ElicitationRequest;
  /**
   * The questions as they stand now: each with its definition (`description`, `input`, …), its
   * `value`, `setValue(raw)` (coerced with `coerceAnswer`) and `error`. A live read of the
   * snapshot: render from `useElicitation`/`useElicitationQuestion` to re-render on change.
   */
  readonly questions: readonly ElicitationQuestionState[];
  /** Whether submitting now would pass every rule: a live read of the snapshot's `isValid`. */
  readonly isValid: boolean;
}

/** The approval state machine: idle → submitting → settled, or → failed and retry. */
export type ApprovalState =
  | { status: "idle" }
  | { status: "submitting"; approved: boolean; reason?: string }
  | { status: "failed"; approved: boolean; reason?: string; error: string }
  | { status: "settled"; approved: boolean; reason?: string; conflict: boolean };

/** What can happen to the approval state machine. */
export type ApprovalEvent =
  | { type: "decide"; approved: boolean; reason?: string }
  | { type: "succeed" }
  | { type: "conflict"; approved: boolean }
  | { type: "fail"; error: string }
  | { type: "retry" }
  | { type: "dismiss" }
  | { type: "settle"; approved: boolean; reason?: string };

/** A text part of a message. */
export interface TextBlock {
  /** Discriminates transcript blocks. */
  type: "text";
  /** Stable within the message: `<messageId>:<part index>`. */
  id: string;
  /** The message it belongs to. */
  messageId: string;
  /** The text so far. */
  text: string;
  /** True while more text may arrive. */
  streaming: boolean;
}

/** A reasoning part of a message. */
export interface ReasoningBlock {
  /** Discriminates transcript blocks. */
  type: "reasoning";
  /** Stable within the message: `<messageId>:<part index>`. */
  id: string;
  /** The message it belongs to. */
  messageId: string;
  /** The reasoning so far. */
  text: string;
  /** True while more may arrive. */
  streaming: boolean;
}

/** Where a tool call stands. */
export type ToolCallStatus = "running" | "done" | "error" | "denied";

/** A registered tool's call (not awaiting approval). */
export interface ToolBlock {
  /** Discriminates transcript blocks. */
  type: "tool";
  /** The tool call id. */
  id: string;
  /** The message it belongs to. */
  messageId: string;
  /** The tool's name. */
  toolName: string;
  /** The tool's input. */
  input: unknown;
  /** Running, done, error or denied. */
  status: ToolCallStatus;
  /** The result, when done. */
  output?: unknown;
  /** The error, when it failed. */
  errorText?: string;
  /** The person's decision, when the call needed approval. */
  approval?: { approved: boolean; reason?: string };
}

/** A tool call waiting for (or just given) a person's approval. */
export interface ApprovalBlock {
  /** Discriminates transcript blocks. */
  type: "approval";
  /** The tool call id that approve and reject name. */
  id: string;
  /** The message it belongs to. */
  messageId: string;
  /** The tool's name. */
  toolName: string;
  /** The tool's input, for the person to judge. */
  input: unknown;
  /** The current state of the approval machine. */
  getSnapshot: () => ApprovalState;
  /** Calls `listener` when the machine changes; returns the unsubscribe. */
  subscribe: (listener: () => void) => () => void;
  /** Approves: the tool runs and the run resumes. */
  approve: () => Promise<void>;
  /** Rejects, with an optional reason the model is told. */
  reject: (reason?: string) => Promise<void>;
  /** Sends the failed decision again. */
  retry: () => Promise<void>;
  /** Settles from outside (the stream, another tab): the machine goes to `settled` with this decision. */
  settle: (decision: { approved: boolean; reason?: string }) => void;
}

/** Any other part (files, sources, data parts), passed through untouched. */
export interface OtherBlock {
  /** Discriminates transcript blocks. */
  type: "other";
  /** Stable within the message: `<messageId>:<part index>`. */
  id: string;
  /** The message it belongs to. */
  messageId: string;
  /** The AI SDK part as it is. */
  part: UIMessage["parts"][number];
}

/** One block of the transcript. */
export type TranscriptBlock =
  | TextBlock
  | ReasoningBlock
  | ToolBlock
  | ApprovalBlock
  | ElicitationBlock
  | OtherBlock;

/** One message of the transcript as blocks; the same object until the message changes. */
export interface TranscriptMessage {
  /** The message id. */
  id: string;
  /** Who said it. */
  role: UIMessage["role"];
  /** Its blocks, in order. */
  blocks: readonly TranscriptBlock[];
  /** The AI SDK message it was made from. */
  message: UIMessage;
}
