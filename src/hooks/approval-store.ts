import {
  type ApprovalEdits,
  answersOfInput,
  applyEdits,
  readApprovalEdits,
} from "@/lib/prepick/core/approval-edits";
import { settleAnswers } from "@/lib/prepick/core/outcome";
import type { Answers, Question } from "@/lib/prepick/core/question";
import { toToolCallFailure } from "@/lib/prepick/transport/tool-call-error";
import { approvalTransition, INITIAL_APPROVAL_STATE } from "./approval-machine";
import { createElicitation } from "./create-elicitation";
import { createStore } from "./create-store";
import type { DraftStorage } from "./draft-storage";
import { type PrepickMessagesInput, resolveMessages } from "./prepick-messages";
import type {
  ApprovalBlock,
  ApprovalEvent,
  ApprovalResult,
  ApprovalState,
  ElicitationBlock,
} from "./transcript-types";

/**
 * How an approval block sends a decision, with an editable call's edits (`answers`, the fields the
 * person changed); resolves with the output the call settled with. Throw a `ToolCallError` for a
 * typed refusal.
 */
export type SendDecision = (
  approved: boolean,
  reason: string | undefined,
  answers?: Answers,
) => Promise<unknown>;

/** What identifies the tool call an approval block is for. */
export interface ApprovalBlockInit {
  /** The tool call id. */
  id: string;
  /** The message it belongs to. */
  messageId: string;
  /** The tool's name. */
  toolName: string;
  /** The tool's input, as the model proposed it. */
  input: unknown;
  /** What the tool does, when known. */
  description?: string;
  /** An editable call's fields as questions, each pre-picked with the proposal. */
  questions?: readonly Question[];
  /** What the person changed, when the call was approved already. */
  edits?: ApprovalEdits;
  /** Its run's opt-in deadline (ISO 8601), when it has one. */
  expiresAt?: string | undefined;
  /** Start the machine here. */
  state?: ApprovalState;
  /** What the call did, when it already ran. */
  result?: ApprovalResult;
  /** Sentences in the app's language, laid over the English defaults (for the fields). */
  messages?: PrepickMessagesInput;
  /** Where an editable call's pending changes are kept, so they survive a reload. */
  drafts?: DraftStorage;
}

/** An approval block and what its builder alone calls: the call's result and edits as they arrive. */
export interface ApprovalBlockHandle extends ApprovalBlock {
  /** Records what the approved call did; listeners hear of it only when it changed. */
  setResult(result: ApprovalResult | undefined): void;
  /** Records what the person changed, as the stream tells it; listeners hear of it only when it changed. */
  setEdits(edits: ApprovalEdits | undefined): void;
}

function sameResult(a: ApprovalResult | undefined, b: ApprovalResult | undefined): boolean {
  if (a === undefined || b === undefined) return a === b;
  if (a.status !== b.status) return false;
  if (a.status === "done" && b.status === "done") return a.output === b.output;
  if (a.status === "error" && b.status === "error") return a.errorText === b.errorText;
  return true;
}

function sameEdits(a: ApprovalEdits | undefined, b: ApprovalEdits | undefined): boolean {
  if (a === undefined || b === undefined) return a === b;
  return JSON.stringify(a) === JSON.stringify(b);
}

/** The outcome the form of an approved call shows: the values of the input it runs with. */
function formOutcome(questions: readonly Question[], input: unknown) {
  return settleAnswers(questions, answersOfInput(questions, input));
}

/**
 * The form of an editable call: its fields as a question set whose marks say "proposed" where an
 * answer's say "pre-picked", and whose submit is the approval (`send` with the fields changed).
 */
function editForm(
  init: ApprovalBlockInit,
  questions: readonly Question[],
  send: (answers: Answers) => Promise<ReturnType<typeof formOutcome>>,
): ElicitationBlock {
  const messages = resolveMessages(init.messages);
  const { state } = init;
  const settled = state?.status === "settled";
  return createElicitation({
    id: init.id,
    messageId: init.messageId,
    request: { questions: [...questions] },
    messages: {
      ...init.messages,
      form: {
        ...init.messages?.form,
        prePicked: messages.approval.proposed,
        prePickedOption: messages.approval.proposedOption,
      },
      settled: { ...init.messages?.settled, prePicked: messages.approval.proposed },
    },
    ...(init.drafts ? { drafts: init.drafts } : {}),
    onAnswer: send,
    // An approval is not skipped: it is rejected, with a reason, through the block.
    onSkip: () => Promise.reject(new Error("An approval cannot be skipped; reject it instead.")),
    ...(settled && state.approved
      ? { outcome: formOutcome(questions, init.edits?.input ?? init.input) }
      : {}),
    ...(settled && !state.approved ? { dismissed: true } : {}),
  });
}

/**
 * An approval block with its own store and the approval state machine. An editable call's block
 * also has a form (an elicitation store over its fields): approving submits it, and the decision
 * travels with the fields the person changed.
 */
export function createApprovalBlock(
  init: ApprovalBlockInit,
  sendDecision: SendDecision,
): ApprovalBlockHandle {
  // The machine's state, what the approved call did and what the person changed, told to the
  // same listeners.
  const store = createStore({
    state: init.state ?? INITIAL_APPROVAL_STATE,
    result: init.result,
    edits: init.edits,
  });
  const dispatch = (event: ApprovalEvent) =>
    store.set((current) => {
      const state = approvalTransition(current.state, event);
      return state === current.state ? current : { ...current, state };
    });
  const setEdits = (edits: ApprovalEdits | undefined) =>
    store.set((current) => (sameEdits(current.edits, edits) ? current : { ...current, edits }));
  const questions = init.questions;

  // Approving an editable call: the form calls this with the fields the person changed.
  const approveWith = async (answers: Answers) => {
    const fields = questions ?? [];
    dispatch({ type: "decide", approved: true });
    try {
      const output = await sendDecision(true, undefined, answers);
      const approved = readApprovalEdits(output) ?? applyEdits(fields, init.input, answers);
      setEdits(approved);
      dispatch({ type: "succeed" });
      return formOutcome(fields, approved.input);
    } catch (error) {
      const failure = toToolCallFailure(error);
      if (failure.kind === "conflict") {
        // Settled elsewhere first: the card says how; the fields stand as the proposal.
        dispatch({ type: "conflict", approved: failure.toolStatus !== "rejected" });
        return formOutcome(fields, init.input);
      }
      dispatch(failure.kind === "invalid" ? { type: "refuse" } : { type: "fail", error: failure.error });
      throw error;
    }
  };
  const form = questions ? editForm(init, questions, approveWith) : undefined;

  const run = async () => {
    const { state } = store.getSnapshot();
    if (state.status !== "submitting") return;
    const { approved, reason } = state;
    try {
      await sendDecision(approved, reason);
      dispatch({ type: "succeed" });
      if (!approved) form?.dismiss();
    } catch (error) {
      const failure = toToolCallFailure(error);
      if (failure.kind === "conflict") dispatch({ type: "conflict", approved });
      else dispatch({ type: "fail", error: failure.error });
    }
  };
  return {
    type: "approval",
    id: init.id,
    messageId: init.messageId,
    toolName: init.toolName,
    input: init.input,
    ...(init.description !== undefined ? { description: init.description } : {}),
    ...(form ? { form } : {}),
    getEdits: () => store.getSnapshot().edits,
    ...(init.expiresAt !== undefined ? { expiresAt: init.expiresAt } : {}),
    getResult: () => store.getSnapshot().result,
    setResult(result) {
      store.set((current) => (sameResult(current.result, result) ? current : { ...current, result }));
    },
    setEdits,
    getSnapshot: () => store.getSnapshot().state,
    subscribe: store.subscribe,
    async approve() {
      if (form) return form.submit();
      dispatch({ type: "decide", approved: true });
      await run();
    },
    async reject(reason) {
      dispatch({ type: "decide", approved: false, ...(reason !== undefined ? { reason } : {}) });
      await run();
    },
    async retry() {
      // A failed approval of an editable call is the form's to send again, with the same fields.
      const { state } = store.getSnapshot();
      if (form && state.status === "failed" && state.approved) return form.retry();
      dispatch({ type: "retry" });
      await run();
    },
    settle(decision) {
      dispatch({ type: "settle", ...decision });
      if (!form) return;
      const { edits } = store.getSnapshot();
      if (decision.approved) form.settle(formOutcome(form.request.questions, edits?.input ?? init.input));
      else form.dismiss();
    },
  };
}
