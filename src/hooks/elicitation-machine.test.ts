import { describe, expect, it } from "vitest";
import type { AnswerIssue } from "@/lib/prepick/core/answers";
import { settleAnswers, settleSkipped } from "@/lib/prepick/core/outcome";
import type { Answers, Question } from "@/lib/prepick/core/question";
import { scopeQuestion, seatsQuestion } from "@/lib/prepick/core/spec-examples";
import {
  answerView,
  elicitationTransition,
  hasChanges,
  initialElicitationState,
  REFUSED_IN_PAGE,
  skipView,
} from "./elicitation-machine";
import type {
  ElicitationAttempt,
  ElicitationEvent,
  ElicitationState,
  PatternReadiness,
  PendingElicitation,
} from "./transcript-types";

const questions: Question[] = [
  scopeQuestion,
  seatsQuestion,
  {
    id: "branch",
    prompt: "What should the branch be called?",
    input: { type: "text", pattern: "[a-z]+(-[a-z]+)*" },
    defaults: ["fix-login"],
  },
];
const answered = settleAnswers(questions, { scope: ["file"] });
const skippedOutcome = settleSkipped(questions);
const seatsIssue: AnswerIssue = {
  questionId: "seats",
  rule: "max",
  value: "12",
  message: 'answers["seats"] must be at most 9',
};

function pending(
  attempt: ElicitationAttempt,
  more: { patterns?: PatternReadiness; values?: Answers; index?: number } & Partial<PendingElicitation> = {},
): PendingElicitation {
  const { patterns = "ready", values = { scope: ["file"] }, index = 0, ...rest } = more;
  return {
    status: "pending",
    draft: { values, index },
    attempt,
    patterns,
    refused: [],
    attempted: [],
    ...rest,
  };
}

const refusedSeats = { values: { scope: ["file"], seats: ["12"] }, index: 1 };

/** One state per kind of attempt, pattern readiness and final state a question set can be in. */
const states: Record<string, ElicitationState> = {
  none: pending({ type: "none" }),
  "none @loading": pending({ type: "none" }, { patterns: "loading" }),
  "none @failed": pending({ type: "none" }, { patterns: "failed" }),
  "next checking": pending(
    { type: "next", status: "checking", questionId: "branch" },
    { patterns: "loading", index: 2 },
  ),
  "next refused": pending({ type: "next", status: "refused", questionId: "seats" }, refusedSeats),
  "next failed": pending(
    { type: "next", status: "failed", questionId: "branch", error: "offline" },
    { patterns: "failed", index: 2 },
  ),
  "answer checking": pending({ type: "answer", status: "checking" }, { patterns: "loading" }),
  "answer submitting": pending({ type: "answer", status: "submitting", answers: { scope: ["file"] } }),
  "answer rejected": pending(
    { type: "answer", status: "rejected", error: "invalid answers", issues: [seatsIssue] },
    { ...refusedSeats, refused: [seatsIssue], attempted: ["seats"] },
  ),
  "answer failed": pending({
    type: "answer",
    status: "failed",
    error: "offline",
    answers: { scope: ["file"] },
  }),
  "answer failed unchecked": pending(
    { type: "answer", status: "failed", error: "offline" },
    { patterns: "failed" },
  ),
  "skip confirming": pending({ type: "skip", status: "confirming" }),
  "skip checking": pending({ type: "skip", status: "checking" }, { patterns: "loading" }),
  "skip submitting": pending({ type: "skip", status: "submitting" }),
  "skip rejected": pending({ type: "skip", status: "rejected", error: "not found" }),
  "skip failed": pending({ type: "skip", status: "failed", error: "offline" }),
  settled: { status: "settled", outcome: answered, conflict: false },
  dismissed: { status: "dismissed" },
};

const events: Record<string, ElicitationEvent> = {
  set: { type: "set", questionId: "scope", raw: "module" },
  toggle: { type: "toggle", questionId: "scope", value: "module" },
  reset: { type: "reset", questionId: "scope" },
  move: { type: "move", index: 1 },
  next: { type: "next" },
  submit: { type: "submit" },
  skip: { type: "skip" },
  "cancel-skip": { type: "cancel-skip" },
  retry: { type: "retry" },
  "patterns-ready": { type: "patterns-ready" },
  "patterns-failed": { type: "patterns-failed", error: "offline" },
  succeed: { type: "succeed", outcome: answered },
  conflict: { type: "conflict", outcome: skippedOutcome },
  "conflict, none stored": { type: "conflict", outcome: undefined },
  reject: { type: "reject", error: "invalid answers", issues: [seatsIssue] },
  fail: { type: "fail", error: "offline" },
  settle: { type: "settle", outcome: skippedOutcome },
  dismiss: { type: "dismiss" },
};

/** Where a transition led, in the table's words: `answer submitting #1 @loading`. */
function where(before: ElicitationState, after: ElicitationState): string {
  if (after === before) return "same";
  if (after.status === "settled") return after.conflict ? "settled (conflict)" : "settled";
  if (after.status === "dismissed") return "dismissed";
  const { attempt, draft, patterns } = after;
  const label = attempt.type === "none" ? "none" : `${attempt.type} ${attempt.status}`;
  return `${label}${draft.index > 0 ? ` #${draft.index}` : ""}${patterns !== "ready" ? ` @${patterns}` : ""}`;
}

const final = Object.fromEntries(Object.keys(events).map((event) => [event, "same"]));
const row = (overrides: Record<string, string>, base: Record<string, string>) => ({ ...base, ...overrides });
const ends = { settle: "settled", dismiss: "dismissed" };
const unchanged = row(ends, final);

// Every state × every event: where it leads ("same" = the very same state object).
const table: Record<string, Record<string, string>> = {
  none: row(
    {
      set: "none",
      toggle: "none",
      reset: "none",
      move: "none #1",
      next: "none #1",
      submit: "answer submitting",
      skip: "skip confirming",
    },
    unchanged,
  ),
  "none @loading": row(
    {
      set: "none @loading",
      toggle: "none @loading",
      reset: "none @loading",
      move: "none #1 @loading",
      next: "none #1 @loading",
      submit: "answer checking @loading",
      skip: "skip confirming @loading",
      "patterns-ready": "none",
      "patterns-failed": "none @failed",
    },
    unchanged,
  ),
  "none @failed": row(
    {
      set: "none @failed",
      toggle: "none @failed",
      reset: "none @failed",
      move: "none #1 @failed",
      next: "none #1 @failed",
      submit: "answer checking @loading",
      skip: "skip confirming @failed",
      "patterns-ready": "none",
    },
    unchanged,
  ),
  "next checking": row(
    {
      set: "next checking #2 @loading",
      toggle: "next checking #2 @loading",
      reset: "next checking #2 @loading",
      move: "none #1 @loading",
      next: "next checking #2 @loading",
      submit: "answer checking #2 @loading",
      skip: "skip confirming #2 @loading",
      "patterns-ready": "answer submitting #2",
      "patterns-failed": "next failed #2 @failed",
    },
    unchanged,
  ),
  "next refused": row(
    {
      set: "none #1",
      toggle: "none #1",
      reset: "none #1",
      next: "next refused #1",
      submit: "answer rejected #1",
      skip: "skip confirming #1",
    },
    unchanged,
  ),
  "next failed": row(
    {
      set: "none #2 @failed",
      toggle: "none #2 @failed",
      reset: "none #2 @failed",
      move: "none #1 @failed",
      next: "next checking #2 @loading",
      submit: "answer checking #2 @loading",
      skip: "skip confirming #2 @failed",
      retry: "next checking #2 @loading",
      "patterns-ready": "next failed #2",
    },
    unchanged,
  ),
  "answer checking": row(
    {
      move: "answer checking #1 @loading",
      "patterns-ready": "answer submitting",
      "patterns-failed": "answer failed @failed",
    },
    unchanged,
  ),
  "answer submitting": row(
    {
      move: "answer submitting #1",
      succeed: "settled",
      conflict: "settled (conflict)",
      "conflict, none stored": "dismissed",
      reject: "answer rejected #1",
      fail: "answer failed",
    },
    unchanged,
  ),
  "answer rejected": row(
    {
      set: "none #1",
      toggle: "none #1",
      reset: "none #1",
      next: "next refused #1",
      submit: "answer rejected #1",
      skip: "skip confirming #1",
    },
    unchanged,
  ),
  "answer failed": row(
    {
      set: "none",
      toggle: "none",
      reset: "none",
      move: "answer failed #1",
      next: "none #1",
      submit: "answer submitting",
      skip: "skip confirming",
      retry: "answer submitting",
    },
    unchanged,
  ),
  "answer failed unchecked": row(
    {
      set: "none @failed",
      toggle: "none @failed",
      reset: "none @failed",
      move: "answer failed #1 @failed",
      next: "none #1 @failed",
      submit: "answer checking @loading",
      skip: "skip confirming @failed",
      retry: "answer checking @loading",
      "patterns-ready": "answer failed",
    },
    unchanged,
  ),
  "skip confirming": row(
    {
      set: "none",
      toggle: "none",
      reset: "none",
      move: "skip confirming #1",
      next: "none #1",
      submit: "answer submitting",
      skip: "skip submitting",
      "cancel-skip": "none",
    },
    unchanged,
  ),
  "skip checking": row(
    {
      move: "skip checking #1 @loading",
      "patterns-ready": "skip submitting",
      "patterns-failed": "skip failed @failed",
    },
    unchanged,
  ),
  "skip submitting": row(
    {
      move: "skip submitting #1",
      succeed: "settled",
      conflict: "settled (conflict)",
      "conflict, none stored": "dismissed",
      reject: "skip rejected",
      fail: "skip failed",
    },
    unchanged,
  ),
  "skip rejected": row(
    {
      set: "none",
      toggle: "none",
      reset: "none",
      move: "skip rejected #1",
      next: "none #1",
      submit: "answer submitting",
      skip: "skip confirming",
      retry: "skip submitting",
    },
    unchanged,
  ),
  "skip failed": row(
    {
      set: "none",
      toggle: "none",
      reset: "none",
      move: "skip failed #1",
      next: "none #1",
      submit: "answer submitting",
      skip: "skip confirming",
      retry: "skip submitting",
    },
    unchanged,
  ),
  settled: final,
  dismissed: final,
};

describe("elicitationTransition, every state × every event", () => {
  it("the table covers every state and every event", () => {
    expect(Object.keys(table)).toEqual(Object.keys(states));
    for (const targets of Object.values(table))
      expect(Object.keys(targets).sort()).toEqual(Object.keys(events).sort());
  });
  for (const [from, targets] of Object.entries(table)) {
    for (const [on, to] of Object.entries(targets)) {
      it(`${from} + ${on} → ${to}`, () => {
        const state = states[from] as ElicitationState;
        expect(where(state, elicitationTransition(state, events[on] as ElicitationEvent, questions))).toBe(
          to,
        );
      });
    }
  }
});

describe("elicitationTransition, what each transition carries", () => {
  const go = (state: ElicitationState, ...steps: ElicitationEvent[]) =>
    steps.reduce((current, event) => elicitationTransition(current, event, questions), state);
  const pendingOf = (state: ElicitationState) => {
    if (state.status !== "pending") throw new Error(`expected pending, got ${state.status}`);
    return state;
  };

  it("an edit coerces and keeps only the touched questions in the draft; a reset takes it out", () => {
    let state = go(pending({ type: "none" }, { values: {} }), {
      type: "set",
      questionId: "seats",
      raw: " 004 ",
    });
    expect(pendingOf(state).draft.values).toEqual({ seats: ["4"] });
    state = go(state, { type: "toggle", questionId: "scope", value: "file" });
    expect(pendingOf(state).draft.values).toEqual({ seats: ["4"], scope: ["file"] });
    state = go(state, { type: "reset", questionId: "seats" });
    expect(pendingOf(state).draft.values).toEqual({ scope: ["file"] });
  });

  it("a refused next stays on its question, marks it attempted, and each refusal is a new attempt", () => {
    const start = pending({ type: "none" }, { values: { seats: ["12"] }, index: 1 });
    const once = pendingOf(go(start, { type: "next" }));
    const twice = pendingOf(go(once, { type: "next" }));
    expect(once.draft.index).toBe(1);
    expect(once.attempted).toEqual(["seats"]);
    expect(twice.attempt).toEqual({ type: "next", status: "refused", questionId: "seats" });
    expect(twice.attempt).not.toBe(once.attempt);
  });

  it("a next on an untouched required question with nothing usable pre-picked is refused", () => {
    const noDefault: Question[] = [
      { id: "contact", prompt: "Who?", input: { type: "email", required: true } },
    ];
    const state = elicitationTransition(
      pending({ type: "none" }, { values: {} }),
      { type: "next" },
      noDefault,
    );
    expect(pendingOf(state).attempt).toMatchObject({ type: "next", status: "refused" });
  });

  it("a submit the page refuses goes to the first refused question and marks every question attempted", () => {
    const state = pendingOf(
      go(pending({ type: "none" }, { values: { seats: ["12"] }, index: 2 }), { type: "submit" }),
    );
    expect(state.draft.index).toBe(1);
    expect(state.attempted).toEqual(["scope", "seats", "branch"]);
    expect(state.attempt).toMatchObject({ type: "answer", status: "rejected", error: REFUSED_IN_PAGE });
    // The page's own refusals are checked live, not kept: fixing the value is enough.
    expect(state.refused).toEqual([]);
  });

  it("sends exactly the touched answers", () => {
    const state = go(pending({ type: "none" }, { values: { seats: ["3"] } }), { type: "submit" });
    expect(pendingOf(state).attempt).toEqual({
      type: "answer",
      status: "submitting",
      answers: { seats: ["3"] },
    });
  });

  it("a server refusal stands on its questions until each is edited, and moves to the first", () => {
    const scopeIssue: AnswerIssue = { questionId: "scope", rule: "option", message: "no longer offered" };
    const stray: AnswerIssue = { questionId: "gone", rule: "unknown-question", message: "not a question" };
    const refused = pendingOf(
      go(pending({ type: "answer", status: "submitting", answers: {} }, { index: 2 }), {
        type: "reject",
        error: "invalid answers",
        issues: [seatsIssue, scopeIssue, stray],
      }),
    );
    expect(refused.draft.index).toBe(0);
    expect(refused.refused).toEqual([seatsIssue, scopeIssue]);
    expect(refused.attempted).toEqual(["seats", "scope"]);
    const edited = pendingOf(go(refused, { type: "set", questionId: "scope", raw: "module" }));
    expect(edited.refused).toEqual([seatsIssue]);
    expect(edited.attempt).toEqual({ type: "none" });
  });

  it("a failed answer retries the very answers it sent, whatever was edited since", () => {
    const failed = pending({
      type: "answer",
      status: "failed",
      error: "offline",
      answers: { scope: ["file"] },
    });
    expect(pendingOf(go(failed, { type: "retry" })).attempt).toEqual({
      type: "answer",
      status: "submitting",
      answers: { scope: ["file"] },
    });
  });

  it("skips at once when nothing changed, and when the person put their change back", () => {
    const untouched = pending({ type: "none" }, { values: {} });
    expect(pendingOf(go(untouched, { type: "skip" })).attempt).toEqual({
      type: "skip",
      status: "submitting",
    });
    const putBack = go(
      untouched,
      { type: "set", questionId: "scope", raw: "file" },
      { type: "set", questionId: "scope", raw: "module" },
    );
    expect(pendingOf(go(putBack, { type: "skip" })).attempt).toEqual({ type: "skip", status: "submitting" });
  });

  it("asks once before discarding changes: a second skip confirms, cancel keeps the draft", () => {
    const changed = pending({ type: "none" }, { values: { scope: ["file"] } });
    const asking = go(changed, { type: "skip" });
    expect(pendingOf(asking).attempt).toEqual({ type: "skip", status: "confirming" });
    expect(pendingOf(go(asking, { type: "skip" })).attempt).toEqual({ type: "skip", status: "submitting" });
    const kept = pendingOf(go(asking, { type: "cancel-skip" }));
    expect(kept.draft.values).toEqual({ scope: ["file"] });
  });

  it("ignores edits while an answer or a skip is on its way", () => {
    const sending = pending({ type: "skip", status: "submitting" });
    expect(go(sending, { type: "set", questionId: "scope", raw: "module" })).toBe(sending);
  });

  it("a next waiting for the pattern engine checks the value as it stands when the engine arrives", () => {
    const waiting = pending(
      { type: "next", status: "checking", questionId: "branch" },
      { patterns: "loading", index: 2, values: {} },
    );
    const edited = go(waiting, { type: "set", questionId: "branch", raw: "Not A Branch" });
    const checked = pendingOf(go(edited, { type: "patterns-ready" }));
    expect(checked.attempt).toEqual({ type: "next", status: "refused", questionId: "branch" });
  });

  it("settles from any pending state, and nothing moves a settled or dismissed set", () => {
    for (const state of Object.values(states)) {
      const after = elicitationTransition(state, { type: "settle", outcome: skippedOutcome }, questions);
      if (state.status === "pending")
        expect(after).toEqual({ status: "settled", outcome: skippedOutcome, conflict: false });
      else expect(after).toBe(state);
    }
  });
});

describe("hasChanges", () => {
  it("is true only for a touched question whose values differ from its defaults, in any order", () => {
    const multiple: Question[] = [
      {
        id: "tests",
        prompt: "Which?",
        multiple: true,
        options: [
          { value: "a", label: "A" },
          { value: "b", label: "B" },
        ],
        defaults: ["a", "b"],
      },
    ];
    expect(hasChanges(multiple, { values: {}, index: 0 })).toBe(false);
    expect(hasChanges(multiple, { values: { tests: ["b", "a"] }, index: 0 })).toBe(false);
    expect(hasChanges(multiple, { values: { tests: ["a"] }, index: 0 })).toBe(true);
  });
});

describe("initialElicitationState", () => {
  it("starts pending, with the values given, the cursor clamped, and patterns loading until the engine is here", () => {
    expect(
      initialElicitationState(questions, { values: { seats: ["3"], gone: ["x"] }, index: 9 }, false),
    ).toEqual({
      status: "pending",
      draft: { values: { seats: ["3"] }, index: 2 },
      attempt: { type: "none" },
      patterns: "loading",
      refused: [],
      attempted: [],
    });
    const plain = questions.slice(0, 2);
    expect(initialElicitationState(plain, {}, false)).toMatchObject({ patterns: "ready" });
  });

  it("maps an answer or skip under way onto the attempt, and a refusal onto its questions", () => {
    const rejected = initialElicitationState(
      questions,
      { answer: { status: "rejected", error: "invalid answers", issues: [seatsIssue] } },
      true,
    );
    expect(rejected).toMatchObject({ refused: [seatsIssue], attempted: ["seats"] });
    expect(initialElicitationState(questions, { skip: { status: "confirming" } }, true)).toMatchObject({
      attempt: { type: "skip", status: "confirming" },
    });
  });

  it("starts settled with an outcome, and dismissed when told", () => {
    expect(initialElicitationState(questions, { outcome: answered }, true)).toEqual({
      status: "settled",
      outcome: answered,
      conflict: false,
    });
    expect(initialElicitationState(questions, { dismissed: true, outcome: answered }, true)).toEqual({
      status: "dismissed",
    });
  });
});

describe("the answer and skip views", () => {
  it("read the one state: an answer being checked shows as submitting the draft, a skip as confirming", () => {
    const checking = pending({ type: "answer", status: "checking" }, { patterns: "loading" });
    expect(answerView(checking)).toEqual({ status: "submitting", answers: { scope: ["file"] } });
    expect(skipView(checking)).toEqual({ status: "idle" });
    const confirming = pending({ type: "skip", status: "confirming" });
    expect(skipView(confirming)).toEqual({ status: "confirming" });
    expect(answerView(confirming)).toEqual({ status: "idle" });
    const settled: ElicitationState = { status: "settled", outcome: skippedOutcome, conflict: true };
    expect(answerView(settled)).toEqual({ status: "settled", outcome: skippedOutcome, conflict: true });
    expect(skipView(settled)).toEqual(answerView(settled));
  });
});
