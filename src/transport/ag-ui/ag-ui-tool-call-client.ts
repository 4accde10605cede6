import { type Interrupt, isInterruptExpired } from "@ag-ui/client";
import { type AnswerIssue, validateAnswers } from "@/lib/prepick/core/answers";
import { applyEdits } from "@/lib/prepick/core/approval-edits";
import { settleAnswers, settleSkipped } from "@/lib/prepick/core/outcome";
import { loadPatternEngine } from "@/lib/prepick/core/pattern";
import type { Answers, ElicitationOutcome } from "@/lib/prepick/core/question";
import type { ToolCallActions, ToolCallResponse } from "@/lib/prepick/transport/tool-call-client";
import type { AgUiFoldState, InterruptDecision } from "./fold-ag-ui-events";
import {
  type ApprovalInterrupt,
  type InterruptSet,
  PREPICK_METADATA_KEY,
  resumePayload,
} from "./interrupt-set";

/** What the client reads and writes of a chat: the fold, whose decisions the next run resumes with. */
export interface AgUiThreadFold {
  /** The chat's fold; the client records the person's decisions in it. */
  fold: AgUiFoldState;
}

function notFound(toolCallId: string): ToolCallResponse {
  const error = `No open question set or approval has the id "${toolCallId}"; the conversation moved on.`;
  return { ok: false, failure: { kind: "not-found", status: 404, error } };
}

function refused(error: string, issues: AnswerIssue[] = []): ToolCallResponse {
  return { ok: false, failure: { kind: "invalid", status: 400, error, issues } };
}

function conflict(toolCallId: string, output: unknown): ToolCallResponse {
  const error = `"${toolCallId}" was already settled.`;
  return {
    ok: false,
    failure: { kind: "conflict", status: 409, error, toolCallId, toolStatus: "settled", output },
  };
}

function settled(toolCallId: string, status: string, output: unknown): ToolCallResponse {
  return { ok: true, result: { toolCallId, status, output } };
}

/**
 * The tool-call client of `AgUiChatTransport`: the same `answer`, `skip`, `approve` and `reject`
 * as the Prepick server's client, so `useChatTranscript` settles an AG-UI interrupt exactly as it
 * settles a question set of the Prepick server. Nothing is sent here: each call records the
 * person's decision (checked against the questions and the interrupt's `expiresAt`) and answers
 * with the settled output; the transport's `reconnectToStream` then resumes the run once every
 * interrupt of the set is decided. An expired interrupt can no longer be answered or approved;
 * skipping or rejecting it (`cancelled`) is how the thread moves past it.
 */
export class AgUiToolCallClient implements ToolCallActions {
  private readonly threads: () => Iterable<AgUiThreadFold>;
  private readonly now: () => Date;

  /** A client over the chats `threads` lists, judging `expiresAt` by `now`. */
  constructor(threads: () => Iterable<AgUiThreadFold>, now: () => Date = () => new Date()) {
    this.threads = threads;
    this.now = now;
  }

  /** Answers the question set of `toolCallId`; left-out questions take their defaults. */
  async answer(toolCallId: string, answers: Answers = {}): Promise<ToolCallResponse> {
    const found = this.find((pending) => pending.questions?.toolCallId === toolCallId);
    const questions = found?.fold.pending?.questions;
    if (!found || !questions) return notFound(toolCallId);
    if (found.fold.outcome) return conflict(toolCallId, found.fold.outcome);
    const expiry = this.expired(
      found.fold,
      questions.sources.map((source) => source.interruptId),
    );
    if (expiry) {
      return refused(
        `This question set expired at ${expiry.toISOString()} and can no longer be answered; skip it to let the agent go on.`,
      );
    }
    const asked = questions.request.questions;
    if (asked.some((question) => question.input?.pattern !== undefined)) await loadPatternEngine();
    const issues = validateAnswers(asked, answers);
    if (issues.length > 0) return refused("Some answers need fixing before they can be sent.", issues);
    const outcome = settleAnswers(asked, answers);
    const decisions = questions.sources.map((source) => [
      source.interruptId,
      { status: "resolved", payload: resumePayload(source, outcome) } satisfies InterruptDecision,
    ]);
    this.record(found, outcome, Object.fromEntries(decisions));
    return settled(toolCallId, "resolved", outcome);
  }

  /** Skips the question set of `toolCallId`: each of its interrupts is resumed `cancelled`. */
  async skip(toolCallId: string): Promise<ToolCallResponse> {
    const found = this.find((pending) => pending.questions?.toolCallId === toolCallId);
    const questions = found?.fold.pending?.questions;
    if (!found || !questions) return notFound(toolCallId);
    if (found.fold.outcome) return conflict(toolCallId, found.fold.outcome);
    const outcome = settleSkipped(questions.request.questions);
    const cancelled: InterruptDecision = { status: "cancelled" };
    this.record(found, outcome, Object.fromEntries(questions.sources.map((s) => [s.interruptId, cancelled])));
    return settled(toolCallId, "cancelled", outcome);
  }

  /**
   * Approves the tool call (or interrupt) `toolCallId`: resumed `resolved` with `{ approved: true }`.
   * An editable call's `answers` are checked against its fields (`validateAnswers`, only what is
   * sent); the payload then carries each edited field beside `approved`, in JSON types as the
   * interrupt's `responseSchema` describes it (`null` for one the person emptied), and the output
   * is `{ input, edited }` as the Prepick server answers it.
   */
  async approve(toolCallId: string, answers?: Answers): Promise<ToolCallResponse> {
    return this.decide(toolCallId, true, undefined, answers);
  }

  /**
   * Rejects the tool call (or interrupt) `toolCallId`: resumed `cancelled`, the reason (if any) in
   * the entry's `metadata.prepick.reason`, which the Prepick server reads and other agents ignore.
   */
  async reject(toolCallId: string, reason?: string): Promise<ToolCallResponse> {
    return this.decide(toolCallId, false, reason);
  }

  private async decide(
    toolCallId: string,
    approved: boolean,
    reason?: string,
    answers?: Answers,
  ): Promise<ToolCallResponse> {
    let approval: ApprovalInterrupt | undefined;
    const found = this.find((pending) => {
      approval = pending.approvals.find((candidate) => candidate.toolCallId === toolCallId);
      return approval !== undefined;
    });
    if (!found || !approval) return notFound(toolCallId);
    const { interruptId } = approval;
    const decided = found.fold.decisions[interruptId];
    if (decided) return conflict(toolCallId, { approved: decided.status === "resolved" });
    const expiry = approved ? this.expired(found.fold, [interruptId]) : undefined;
    if (expiry) {
      return refused(
        `This request expired at ${expiry.toISOString()} and can no longer be approved; reject it to let the agent go on.`,
      );
    }
    if (!approved) {
      const decision: InterruptDecision = {
        status: "cancelled",
        ...(reason ? { metadata: { [PREPICK_METADATA_KEY]: { reason } } } : {}),
      };
      this.record(found, found.fold.outcome, { [interruptId]: decision });
      return settled(toolCallId, decision.status, { approved });
    }
    const edit = approval.edit;
    if (!edit) {
      if (answers !== undefined && Object.keys(answers).length > 0) {
        return refused(
          `"${toolCallId}" is an approval whose input is not editable; approve it without answers.`,
        );
      }
      this.record(found, found.fold.outcome, {
        [interruptId]: { status: "resolved", payload: { approved } },
      });
      return settled(toolCallId, "resolved", { approved });
    }
    const sent = answers ?? {};
    if (edit.questions.some((question) => question.input?.pattern !== undefined)) await loadPatternEngine();
    // Only what is sent is judged: a field left out keeps the proposal, which the agent already took.
    const issues = validateAnswers(edit.questions, sent).filter(
      (issue) => issue.rule !== "required" || Object.hasOwn(sent, issue.questionId),
    );
    if (issues.length > 0) return refused("Some edits need fixing before they can be sent.", issues);
    const edits = applyEdits(edit.questions, edit.input, sent);
    const values = Object.fromEntries(edits.edited.map((id) => [id, edits.input[id] ?? null]));
    const decision: InterruptDecision = { status: "resolved", payload: { approved, ...values }, edits };
    this.record(found, found.fold.outcome, { [interruptId]: decision });
    return settled(toolCallId, "resolved", edits);
  }

  private find(matches: (pending: InterruptSet) => boolean): AgUiThreadFold | undefined {
    for (const thread of this.threads()) {
      const pending = thread.fold.pending;
      if (pending && matches(pending)) return thread;
    }
    return undefined;
  }

  /** The earliest expiry among `ids` that has passed, if any. */
  private expired(fold: AgUiFoldState, ids: readonly string[]): Date | undefined {
    const now = this.now();
    const interrupts: Interrupt[] = (fold.pending?.interrupts ?? []).filter((i) => ids.includes(i.id));
    const past = interrupts.filter((interrupt) => isInterruptExpired(interrupt, now));
    const times = past.map((interrupt) => new Date(interrupt.expiresAt as string).getTime());
    return times.length === 0 ? undefined : new Date(Math.min(...times));
  }

  private record(
    thread: AgUiThreadFold,
    outcome: ElicitationOutcome | undefined,
    decisions: Record<string, InterruptDecision>,
  ) {
    thread.fold = { ...thread.fold, outcome, decisions: { ...thread.fold.decisions, ...decisions } };
  }
}
