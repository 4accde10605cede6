import { describe, expect, it } from "vitest";
import { settleAnswers, settleSkipped } from "@/lib/prepick/core/outcome";
import { scopeQuestion } from "@/lib/prepick/core/spec-examples";
import { answerTransition } from "./answer-machine";
import { approvalTransition } from "./approval-machine";
import { skipTransition } from "./skip-machine";
import type {
  AnswerEvent,
  AnswerState,
  ApprovalEvent,
  ApprovalState,
  SkipEvent,
  SkipState,
} from "./transcript-types";

const questions = [scopeQuestion];
const answered = settleAnswers(questions, { scope: ["file"] });
const skippedOutcome = settleSkipped(questions);
const issue = {
  questionId: "scope",
  rule: "option" as const,
  message: 'answers["scope"] must be one of "file", "module"',
};

describe("answerTransition", () => {
  const states: Record<AnswerState["status"], AnswerState> = {
    idle: { status: "idle" },
    submitting: { status: "submitting", answers: { scope: ["file"] } },
    rejected: { status: "rejected", error: "refused", issues: [issue] },
    failed: { status: "failed", error: "offline", answers: { scope: ["file"] } },
    settled: { status: "settled", outcome: answered, conflict: false },
  };
  const events: Record<AnswerEvent["type"], AnswerEvent> = {
    submit: { type: "submit", answers: { scope: ["module"] } },
    succeed: { type: "succeed", outcome: answered },
    conflict: { type: "conflict", outcome: skippedOutcome },
    reject: { type: "reject", error: "refused", issues: [issue] },
    fail: { type: "fail", error: "offline" },
    retry: { type: "retry" },
    edit: { type: "edit" },
    settle: { type: "settle", outcome: skippedOutcome },
  };
  // Every state × every event: where it leads ("same" = the very same state object).
  const table: Record<AnswerState["status"], Record<AnswerEvent["type"], AnswerState | "same">> = {
    idle: {
      submit: { status: "submitting", answers: { scope: ["module"] } },
      succeed: "same",
      conflict: "same",
      reject: "same",
      fail: "same",
      retry: "same",
      edit: "same",
      settle: { status: "settled", outcome: skippedOutcome, conflict: false },
    },
    submitting: {
      submit: "same",
      succeed: { status: "settled", outcome: answered, conflict: false },
      conflict: { status: "settled", outcome: skippedOutcome, conflict: true },
      reject: { status: "rejected", error: "refused", issues: [issue] },
      fail: { status: "failed", error: "offline", answers: { scope: ["file"] } },
      retry: "same",
      edit: "same",
      settle: { status: "settled", outcome: skippedOutcome, conflict: false },
    },
    rejected: {
      submit: { status: "submitting", answers: { scope: ["module"] } },
      succeed: "same",
      conflict: "same",
      reject: "same",
      fail: "same",
      retry: "same",
      edit: { status: "idle" },
      settle: { status: "settled", outcome: skippedOutcome, conflict: false },
    },
    failed: {
      submit: { status: "submitting", answers: { scope: ["module"] } },
      succeed: "same",
      conflict: "same",
      reject: "same",
      fail: "same",
      retry: { status: "submitting", answers: { scope: ["file"] } },
      edit: { status: "idle" },
      settle: { status: "settled", outcome: skippedOutcome, conflict: false },
    },
    settled: {
      submit: "same",
      succeed: "same",
      conflict: "same",
      reject: "same",
      fail: "same",
      retry: "same",
      edit: "same",
      settle: "same",
    },
  };
  for (const [from, row] of Object.entries(table)) {
    for (const [on, to] of Object.entries(row)) {
      it(`${from} + ${on} → ${to === "same" ? from : to.status}`, () => {
        const state = states[from as AnswerState["status"]];
        const next = answerTransition(state, events[on as AnswerEvent["type"]]);
        if (to === "same") expect(next).toBe(state);
        else expect(next).toEqual(to);
      });
    }
  }
});

describe("skipTransition", () => {
  const states: Record<SkipState["status"], SkipState> = {
    idle: { status: "idle" },
    submitting: { status: "submitting" },
    rejected: { status: "rejected", error: "not found" },
    failed: { status: "failed", error: "offline" },
    settled: { status: "settled", outcome: skippedOutcome, conflict: false },
  };
  const events: Record<SkipEvent["type"], SkipEvent> = {
    skip: { type: "skip" },
    succeed: { type: "succeed", outcome: skippedOutcome },
    conflict: { type: "conflict", outcome: answered },
    reject: { type: "reject", error: "not found" },
    fail: { type: "fail", error: "offline" },
    retry: { type: "retry" },
    dismiss: { type: "dismiss" },
    settle: { type: "settle", outcome: answered },
  };
  const submitting: SkipState = { status: "submitting" };
  const settledByOther: SkipState = { status: "settled", outcome: answered, conflict: false };
  const table: Record<SkipState["status"], Record<SkipEvent["type"], SkipState | "same">> = {
    idle: {
      skip: submitting,
      succeed: "same",
      conflict: "same",
      reject: "same",
      fail: "same",
      retry: "same",
      dismiss: "same",
      settle: settledByOther,
    },
    submitting: {
      skip: "same",
      succeed: { status: "settled", outcome: skippedOutcome, conflict: false },
      conflict: { status: "settled", outcome: answered, conflict: true },
      reject: { status: "rejected", error: "not found" },
      fail: { status: "failed", error: "offline" },
      retry: "same",
      dismiss: "same",
      settle: settledByOther,
    },
    rejected: {
      skip: submitting,
      succeed: "same",
      conflict: "same",
      reject: "same",
      fail: "same",
      retry: submitting,
      dismiss: { status: "idle" },
      settle: settledByOther,
    },
    failed: {
      skip: submitting,
      succeed: "same",
      conflict: "same",
      reject: "same",
      fail: "same",
      retry: submitting,
      dismiss: { status: "idle" },
      settle: settledByOther,
    },
    settled: {
      skip: "same",
      succeed: "same",
      conflict: "same",
      reject: "same",
      fail: "same",
      retry: "same",
      dismiss: "same",
      settle: "same",
    },
  };
  for (const [from, row] of Object.entries(table)) {
    for (const [on, to] of Object.entries(row)) {
      it(`${from} + ${on} → ${to === "same" ? from : to.status}`, () => {
        const state = states[from as SkipState["status"]];
        const next = skipTransition(state, events[on as SkipEvent["type"]]);
        if (to === "same") expect(next).toBe(state);
        else expect(next).toEqual(to);
      });
    }
  }
});

describe("approvalTransition", () => {
  const states: Record<ApprovalState["status"], ApprovalState> = {
    idle: { status: "idle" },
    submitting: { status: "submitting", approved: false, reason: "too risky" },
    failed: { status: "failed", approved: false, reason: "too risky", error: "offline" },
    settled: { status: "settled", approved: true, conflict: false },
  };
  const events: Record<ApprovalEvent["type"], ApprovalEvent> = {
    decide: { type: "decide", approved: true },
    succeed: { type: "succeed" },
    conflict: { type: "conflict", approved: true },
    fail: { type: "fail", error: "offline" },
    retry: { type: "retry" },
    dismiss: { type: "dismiss" },
    settle: { type: "settle", approved: false, reason: "cancelled" },
  };
  const settledOutside: ApprovalState = {
    status: "settled",
    approved: false,
    reason: "cancelled",
    conflict: false,
  };
  const table: Record<ApprovalState["status"], Record<ApprovalEvent["type"], ApprovalState | "same">> = {
    idle: {
      decide: { status: "submitting", approved: true },
      succeed: "same",
      conflict: "same",
      fail: "same",
      retry: "same",
      dismiss: "same",
      settle: settledOutside,
    },
    submitting: {
      decide: "same",
      succeed: { status: "settled", approved: false, reason: "too risky", conflict: false },
      conflict: { status: "settled", approved: true, conflict: true },
      fail: { status: "failed", approved: false, reason: "too risky", error: "offline" },
      retry: "same",
      dismiss: "same",
      settle: settledOutside,
    },
    failed: {
      decide: { status: "submitting", approved: true },
      succeed: "same",
      conflict: "same",
      fail: "same",
      retry: { status: "submitting", approved: false, reason: "too risky" },
      dismiss: { status: "idle" },
      settle: settledOutside,
    },
    settled: {
      decide: "same",
      succeed: "same",
      conflict: "same",
      fail: "same",
      retry: "same",
      dismiss: "same",
      settle: "same",
    },
  };
  for (const [from, row] of Object.entries(table)) {
    for (const [on, to] of Object.entries(row)) {
      it(`${from} + ${on} → ${to === "same" ? from : to.status}`, () => {
        const state = states[from as ApprovalState["status"]];
        const next = approvalTransition(state, events[on as ApprovalEvent["type"]]);
        if (to === "same") expect(next).toBe(state);
        else expect(next).toEqual(to);
      });
    }
  }
});
