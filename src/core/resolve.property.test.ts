import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { resolveAnswers, validateAnswers } from "./answers";
import { checkQuestions } from "./check-questions";
import { coerceAnswer } from "./coerce-answer";
import type { Answers, Question } from "./question";
import { bookingIntake, specIntake } from "./spec-examples";
import { valueProblem } from "./value-problem";

const boolean: Question = { id: "agree", prompt: "Agree?", input: { type: "boolean" }, defaults: ["true"] };
const day: Question = {
  id: "day",
  prompt: "When?",
  input: { type: "date", min: "2026-01-01", max: "2026-12-31" },
};
const code: Question = { id: "code", prompt: "Code?", input: { type: "text", pattern: "[A-Z]{2,4}" } };
const name: Question = { id: "name", prompt: "Name?", input: { type: "text", min: 2, max: 5 } };
const slot: Question = {
  id: "slot",
  prompt: "At what time?",
  input: { type: "datetime", min: "2026-03-01T09:00", max: "2026-03-01T17:30" },
};
const tools: Question = {
  id: "tools",
  prompt: "Which tools?",
  multiple: true,
  minItems: 2,
  maxItems: 3,
  options: ["a", "b", "c", "d"].map((value) => ({ value, label: value.toUpperCase() })),
  defaults: ["a", "b"],
};
const questions: Question[] = [
  ...specIntake.questions,
  ...bookingIntake.questions,
  boolean,
  day,
  code,
  name,
  slot,
  tools,
];

/**
 * Values worth trying for each question: valid ones, near misses and junk, and every bound both at
 * it and one past it (seats 1 and 9, 0 and 10; notes of 500 and 501 characters; the first and last
 * day, the days around them; a code of 2 and 4 letters, 1 and 5; names of 2 and 5, 1 and 6; the
 * first and last minute and the minutes around them). Item counts at and past minItems and maxItems
 * come from the arrays of up to five values drawn from these.
 */
const candidates: Record<string, string[]> = {
  scope: ["file", "module", "both", ""],
  tests: ["unit", "e2e", "smoke"],
  seats: ["1", "9", "10", "0", "1.5", "07", "4.2e0", "x"],
  contact: ["ada@example.com", "nobody", ""],
  notes: ["", "short", "x".repeat(500), "x".repeat(501)],
  agree: ["true", "false", "yes", "maybe"],
  day: ["2026-01-01", "2026-12-31", "2025-12-31", "2027-01-01", "2026-02-28", "2026-2-3", "2026-02-30"],
  code: ["AB", "ABCD", "A", "ABCDE", "ab"],
  name: ["ab", "abcde", "a", "abcdef", "😀😀😀😀😀"],
  slot: ["2026-03-01T09:00", "2026-03-01T17:30", "2026-03-01T08:59", "2026-03-01T17:31", "2026-03-01T9:00"],
  tools: ["a", "b", "c", "d", "e"],
};

const answersArbitrary: fc.Arbitrary<Answers> = fc
  .subarray(questions)
  .chain((picked) =>
    fc.record(
      Object.fromEntries(
        picked.map((question) => [
          question.id,
          fc.array(fc.constantFrom(...(candidates[question.id] ?? [""])), { maxLength: 5 }),
        ]),
      ),
    ),
  );

describe("validate → resolve", () => {
  it("uses a question set whose definition passes its own rules", () => {
    expect(checkQuestions(questions)).toEqual([]);
  });

  it("never loses nor invents an answer", () => {
    fc.assert(
      fc.property(answersArbitrary, (answers) => {
        const issues = validateAnswers(questions, answers);
        const resolved = resolveAnswers(questions, answers);
        // Every question is present, nothing else is.
        expect(Object.keys(resolved.answers)).toEqual(questions.map((question) => question.id));
        for (const question of questions) {
          const values = resolved.answers[question.id] ?? [];
          // Nothing stored breaks its own question's rules.
          for (const value of values) expect(valueProblem(question, value)).toBeUndefined();
          const given = answers[question.id];
          if (given === undefined) {
            expect(resolved.defaulted.includes(question.id)).toBe((question.defaults ?? []).length > 0);
            expect(values).toEqual(question.defaults ?? []);
          } else if (issues.length === 0) {
            // A valid submission is stored exactly as sent, in canonical form.
            const canonical = [...new Set(given.map((value) => coerceAnswer(question, value)))].filter(
              Boolean,
            );
            expect(values).toEqual(canonical);
            expect(resolved.defaulted).not.toContain(question.id);
          }
        }
      }),
      { numRuns: 3000 },
    );
  });
});
