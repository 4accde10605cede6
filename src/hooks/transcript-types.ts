import type { UIMessage } from "ai";
import type { AnswerIssue } from "@/lib/prepick/core/answers";
import type { ApprovalEdits } from "@/lib/prepick/core/approval-edits";
import type {
  Answers,
  ElicitationOutcome,
  ElicitationRequest,
  ElicitationSource,
  Option,
  Question,
  QuestionInput,
} from "@/lib/prepick/core/question";
import type { CharacterCount } from "./issue-sentence";
import type { PrepickMessages } from "./prepick-messages";

/**
 * The answer, as the snapshot's `answer` shows it: a view of the set's one state
 * ({@link ElicitationState}). `idle` → `submitting` → `settled`; or → `rejected` (a 400, its issues
 * placed on the questions they name) and back to `idle` when the person edits; or → `failed` (the
 * request never got through) and `retry` submits the same answers again.
 */
export type AnswerState =
  | {
      /** Nothing sent yet, or the person is fixing a refused answer. */
      status: "idle";
    }
  | {
      /** The answers are being checked against their patterns, or are on their way. */
      status: "submitting";
      /** Exactly what is sent: only the questions the person touched. */
      answers: Answers;
    }
  | {
      /** The server (or the page's own check) refused the answers. */
      status: "rejected";
      /** The refusal's one line, as the API wrote it. */
      error: string;
      /** The refused answers, each naming its question. */
      issues: AnswerIssue[];
    }
  | {
      /** The request failed before the server could judge it (offline, 5xx). */
      status: "failed";
      /** What went wrong, technically (the person reads the snapshot's `error`). */
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

/**
 * The skip, as the snapshot's `skip` shows it: a view of the set's one state. `idle` →
 * `confirming` (the person changed something: discard it?) → `submitting` → `settled`; or →
 * `rejected` (the server refused, e.g. a 404) or → `failed` (the request never got through), from
 * which `retry` skips again.
 */
export type SkipState =
  | {
      /** Not skipped. */
      status: "idle";
    }
  | {
      /** The person asked to skip after changing answers: `skip()` again discards them, `cancelSkip()` keeps them. */
      status: "confirming";
    }
  | {
      /** The skip is on its way. */
      status: "submitting";
    }
  | {
      /** The server refused the skip. */
      status: "rejected";
      /** Why, as the API wrote it. */
      error: string;
    }
  | {
      /** The request failed before the server could judge it. */
      status: "failed";
      /** What went wrong, technically. */
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

/** What a pending set has of its person's work: what survives a reload. */
export interface ElicitationDraft {
  /** The values the person set, by question id; only questions they touched are here (and sent). */
  values: Answers;
  /** The current question of a one-at-a-time form. */
  index: number;
}

/** Whether the lazily loaded pattern engine is here to check the questions' patterns. */
export type PatternReadiness = "loading" | "ready" | "failed";

/**
 * What the person last tried, and where it stands. `next` confirms one question of a
 * one-at-a-time form; `answer` sends the set; `skip` declines it. `checking` waits for the
 * pattern engine; `failed` never got through (or the engine did not load) and can be retried.
 */
export type ElicitationAttempt =
  | { type: "none" }
  | { type: "next"; status: "checking" | "refused"; questionId: string }
  | { type: "next"; status: "failed"; questionId: string; error: string }
  | { type: "answer"; status: "checking" }
  | { type: "answer"; status: "submitting"; answers: Answers }
  | { type: "answer"; status: "rejected"; error: string; issues: AnswerIssue[] }
  | {
      type: "answer";
      status: "failed";
      error: string;
      /** What was sent; undefined when the answers could not be checked (the engine did not load). */
      answers?: Answers;
    }
  | { type: "skip"; status: "confirming" | "checking" | "submitting" }
  | { type: "skip"; status: "rejected" | "failed"; error: string };

/** A question set waiting for its person. */
export interface PendingElicitation {
  /** Waiting for an answer. */
  status: "pending";
  /** The person's work so far. */
  draft: ElicitationDraft;
  /** What the person last tried. */
  attempt: ElicitationAttempt;
  /** Whether patterns can be checked; `ready` for a set without patterns. */
  patterns: PatternReadiness;
  /** The server's refusals still standing, each until its question is edited. */
  refused: readonly AnswerIssue[];
  /** Questions the person tried to confirm: their errors show at once, untouched ones' too. */
  attempted: readonly string[];
}

/** The one state of a question set: pending, settled, or dismissed (its run was cancelled first). */
export type ElicitationState =
  | PendingElicitation
  | {
      /** Answered, skipped, or settled elsewhere. */
      status: "settled";
      /** How it settled. */
      outcome: ElicitationOutcome;
      /** True when the server said it was already settled (a double submit, another tab). */
      conflict: boolean;
    }
  | {
      /** Its run was cancelled before anyone answered. */
      status: "dismissed";
    };

/** What can happen to a question set; `elicitationTransition` says where each leads. */
export type ElicitationEvent =
  /** The person set a question's value from raw input (coerced with `coerceAnswer`). */
  | { type: "set"; questionId: string; raw: unknown }
  /** The person added or removed one value (or, on a single-value question, picked it). */
  | { type: "toggle"; questionId: string; value: string }
  /** The person put a question back to its pre-picked answer. */
  | { type: "reset"; questionId: string }
  /** The one-at-a-time cursor moved. */
  | { type: "move"; index: number }
  /** Confirm the current question and show the next one (on the last, submit). */
  | { type: "next" }
  /** Send the touched answers. */
  | { type: "submit" }
  /** Decline; when the person changed something, the first asks to confirm and the second confirms. */
  | { type: "skip" }
  /** Keep the changes instead of skipping. */
  | { type: "cancel-skip" }
  /** Try a failed attempt again. */
  | { type: "retry" }
  /** The pattern engine arrived. */
  | { type: "patterns-ready" }
  /** The pattern engine did not load. */
  | { type: "patterns-failed"; error: string }
  /** The answer or skip settled the set. */
  | { type: "succeed"; outcome: ElicitationOutcome }
  /** It was settled already: with the stored outcome, or (none stored) its run was cancelled. */
  | { type: "conflict"; outcome: ElicitationOutcome | undefined }
  /** The server refused it; `issues` name the questions. */
  | { type: "reject"; error: string; issues: AnswerIssue[] }
  /** The request never got through. */
  | { type: "fail"; error: string }
  /** Settled from outside (the stream, another tab). */
  | { type: "settle"; outcome: ElicitationOutcome }
  /** Its run was cancelled before an answer. */
  | { type: "dismiss" };

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
  /**
   * The first problem with this question, as a sentence for the person (`Enter a number from 1
   * to 9.`), or undefined. From the server's refusal, else the page's own check once the person
   * touched the question or tried to confirm it. The API's own line is `issues[0].message`.
   */
  error?: string;
  /** Every problem with this question, structured: rule, value and the API's message. */
  issues: readonly AnswerIssue[];
  /** True once the person tried to confirm this question (Next on it, or Confirm on the set). */
  attempted: boolean;
  /** The live length of capped text (a typed text field with a `max`), or undefined. */
  characters?: CharacterCount;
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
  /**
   * The values as the person reads them, in the same order: options by label, Yes/No, numbers
   * and dates formatted for the locale.
   */
  labels: readonly string[];
  /** True when the person did not touch it and its defaults stood. */
  defaulted: boolean;
  /**
   * Whose answer stands: `answered` (the person's), `pre-picked` (the agent's pick, untouched or
   * skipped), `left-to-agent` (skipped with nothing pre-picked: the agent decides) or `no-answer`
   * (the person left it empty).
   */
  kind: "answered" | "pre-picked" | "left-to-agent" | "no-answer";
}

/** A settled question set, ready to show: answers by label, defaulted ones, whether skipped. */
export interface ElicitationSettled {
  /** The outcome the server (or the local settle) recorded. */
  outcome: ElicitationOutcome;
  /** True when the person skipped: every answer is the agent's pick. */
  skipped: boolean;
  /** One entry per question, in order. */
  answers: readonly SettledAnswer[];
}

/** Where a question set stands. `dismissed`: its run was cancelled before anyone answered. */
export type ElicitationPhase = "pending" | "settled" | "dismissed";

/** Everything a form reads about a question set at one moment. */
export interface ElicitationSnapshot {
  /** The set's one state; everything else here is read from it. */
  state: ElicitationState;
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
  /**
   * The questions a skip leaves to the agent, by id: those with nothing pre-picked (a typed
   * question without a default, such as "Who should we email?"). Empty when every question has a
   * pick, so a skip lets the agent's picks stand; otherwise a UI says the agent decides these
   * (`messages.form.skipToAgent`), as the settled view will (`left-to-agent`).
   */
  leftToAgent: readonly string[];
  /** The answer, a view of `state`. */
  answer: AnswerState;
  /** The skip, a view of `state`. */
  skip: SkipState;
  /** True while an answer or a skip is being checked or on its way. */
  busy: boolean;
  /**
   * What went wrong with the whole set, as a sentence for the person (a failed send, a refusal
   * no question can show), or undefined.
   */
  error?: string;
  /** True when `retry()` would send something again. */
  canRetry: boolean;
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
  /**
   * Confirms the current question: refused, it stays (its error shows); else the next question
   * shows, and on the last the set is submitted. Resolves once that is decided (and sent).
   */
  next: () => Promise<void>;
  /** Submits the touched questions; the server resolves the rest from their defaults. */
  submit: () => Promise<void>;
  /**
   * Skips: the agent proceeds on its own picks. When the person changed something, the first call
   * asks to discard it (`skip.status` is `confirming`) and a second call confirms.
   */
  skip: () => Promise<void>;
  /** Keeps the changes instead of skipping (from `confirming`). */
  cancelSkip: () => void;
  /** Sends again whatever failed (an answer, a skip, or a check the pattern engine could not make). */
  retry: () => Promise<void>;
  /** Settles from outside (a stream frame, another tab). */
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
   * Its run's opt-in deadline (ISO 8601), when the caller bounded the run: past it the set
   * expires unanswered (dismissed) and the run stops. Undefined: it waits as long as it takes.
   */
  expiresAt?: string;
  /**
   * The questions as they stand now: each with its definition (`description`, `input`, …), its
   * `value`, `setValue(raw)` (coerced with `coerceAnswer`) and `error`. A live read of the
   * snapshot: render from `useElicitation`/`useElicitationQuestion` to re-render on change.
   */
  readonly questions: readonly ElicitationQuestionState[];
  /** Whether submitting now would pass every rule: a live read of the snapshot's `isValid`. */
  readonly isValid: boolean;
  /** The sentences its errors and settled answers are written in; a UI shows the rest from them too. */
  readonly messages: PrepickMessages;
}

/**
 * The approval state machine: idle → submitting → settled, or → failed and retry, or back to idle
 * when the server refuses an editable call's edits (they are then shown on the fields).
 */
export type ApprovalState =
  | { status: "idle" }
  | { status: "submitting"; approved: boolean; reason?: string }
  | { status: "failed"; approved: boolean; reason?: string; error: string }
  | { status: "settled"; approved: boolean; reason?: string; conflict: boolean };

/** What can happen to the approval state machine. */
export type ApprovalEvent =
  | { type: "decide"; approved: boolean; reason?: string }
  | { type: "succeed" }
  /** The server refused the decision's edits (a 400): back to `idle`, the issues on the fields. */
  | { type: "refuse" }
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
  /** Its run's opt-in deadline (ISO 8601), when the call waited on a person under one. */
  expiresAt?: string;
}

/** What an approved call did: still running, its output, or its error. */
export type ApprovalResult =
  | { status: "running" }
  | { status: "done"; output: unknown }
  | { status: "error"; errorText: string };

/**
 * A tool call that needs a person's approval, for its whole life: waiting for the decision, then
 * the decision, and for an approved call what it did.
 */
export interface ApprovalBlock {
  /** Discriminates transcript blocks. */
  type: "approval";
  /** The tool call id that approve and reject name. */
  id: string;
  /** The message it belongs to. */
  messageId: string;
  /** The tool's name. */
  toolName: string;
  /** The tool's input as the model proposed it, for the person to judge. */
  input: unknown;
  /** What the tool does, as its definition describes it, when the server sent it. */
  description?: string;
  /**
   * When the tool's input is editable: its fields as a question set, each pre-picked with the
   * model's proposed value, with what an elicitation block has (`questions` with `value`,
   * `setValue(raw)` and `error`, `isValid`, per-field subscriptions). `approve()` sends the fields
   * the person changed; a field left alone keeps the proposal. Undefined for any other call.
   */
  form?: ElicitationBlock;
  /**
   * What the person changed, once an editable call is approved: the input it runs with and the
   * fields edited (`[]` when approved as proposed); `undefined` before that and for other calls.
   */
  getEdits: () => ApprovalEdits | undefined;
  /** Its run's opt-in deadline (ISO 8601), when it has one: past it the call expires undecided. */
  expiresAt?: string;
  /** What the call did once approved; `undefined` before that and for a rejected call. */
  getResult: () => ApprovalResult | undefined;
  /** The current state of the approval machine. */
  getSnapshot: () => ApprovalState;
  /** Calls `listener` when the machine changes; returns the unsubscribe. */
  subscribe: (listener: () => void) => () => void;
  /**
   * Approves: the tool runs and the run resumes. An editable call is approved with the fields the
   * person changed (`form.submit()`): refused by the form's own rules, or by the server's (a 400),
   * it stays waiting with the errors on the fields.
   */
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
