import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  ElicitationOutcomeSchema,
  parseAnswers,
  parseAskInput,
  resolveAnswers,
  settleAnswers,
  validateAnswers,
  valueProblem,
} from "@/lib/prepick/core";

const RUNS = 10_000;
const SEED = 7_1129;

// Values that pass some rules and fail others: option values, numbers, dates, emails, urls.
const VALUES = [
  "a",
  "b",
  "c",
  "2",
  "5",
  "12",
  "-1",
  "2026-01-31",
  "2026-13-01",
  "x@y.z",
  "https://x.y",
  "true",
  "abc",
  "",
];
const value = fc.oneof(fc.constantFrom(...VALUES), fc.string({ maxLength: 8 }));
const ids = fc.constantFrom("scope", "tests", "seats", "when", "notes", "__proto__");

// Well-formed questions, so most cases get past the first check and reach the rules.
const choiceQuestion = fc
  .record({
    id: ids,
    values: fc.uniqueArray(fc.constantFrom("a", "b", "c", "d"), { minLength: 1, maxLength: 4 }),
    multiple: fc.boolean(),
    allowFreeText: fc.boolean(),
    picks: fc.integer({ min: 0, max: 3 }),
  })
  .map(({ id, values, multiple, allowFreeText, picks }) => ({
    id,
    prompt: `Question ${id}?`,
    options: values.map((each) => ({ value: each, label: each.toUpperCase() })),
    multiple,
    allowFreeText,
    defaults: values.slice(0, multiple ? Math.max(1, picks) : 1),
  }));
const typedQuestion = fc
  .record({
    id: ids,
    type: fc.constantFrom("text", "textarea", "number", "boolean", "date", "email", "url"),
    min: fc.option(fc.integer({ min: 0, max: 5 }), { nil: undefined }),
    max: fc.option(fc.integer({ min: 5, max: 20 }), { nil: undefined }),
    pattern: fc.option(fc.constantFrom("^[a-z]+$", "(a+)+$", "\\d+"), { nil: undefined }),
    required: fc.boolean(),
    defaults: fc.option(fc.array(value, { maxLength: 1 }), { nil: undefined }),
  })
  .map(({ id, type, min, max, pattern, required, defaults }) => ({
    id,
    prompt: `Question ${id}?`,
    input: {
      type,
      required,
      ...(min !== undefined && type !== "date" ? { min } : {}),
      ...(max !== undefined && type !== "date" ? { max } : {}),
      ...(pattern !== undefined && type === "text" ? { pattern } : {}),
    },
    ...(defaults !== undefined ? { defaults } : {}),
  }));
const askInput = fc.oneof(
  {
    weight: 8,
    arbitrary: fc.record({
      questions: fc.array(fc.oneof(choiceQuestion, typedQuestion), { minLength: 1, maxLength: 5 }),
    }),
  },
  { weight: 1, arbitrary: fc.record({ questions: fc.array(fc.anything(), { maxLength: 3 }) }) },
  { weight: 1, arbitrary: fc.anything() },
);
const answersInput = fc.oneof(
  { weight: 8, arbitrary: fc.dictionary(ids, fc.array(value, { maxLength: 3 }), { maxKeys: 4 }) },
  { weight: 1, arbitrary: fc.dictionary(fc.string({ maxLength: 6 }), fc.anything()) },
  { weight: 1, arbitrary: fc.anything() },
);

describe("the question model under fuzzing", () => {
  it(`never throws, and whatever it accepts settles to a valid outcome (${RUNS} cases)`, () => {
    const reached = { asked: 0, settled: 0 };
    fc.assert(
      fc.property(askInput, answersInput, (ask, rawAnswers) => {
        const parsed = parseAskInput(ask);
        if (!parsed.success) {
          // A refusal always says what is wrong, so the model can fix its call.
          expect(parsed.issues.length).toBeGreaterThan(0);
          for (const issue of parsed.issues) expect(issue.message).not.toBe("");
          return;
        }
        reached.asked += 1;
        const { questions } = parsed.request;
        const answers = parseAnswers(rawAnswers);
        if (!answers.success) {
          expect(answers.issues.length).toBeGreaterThan(0);
          return;
        }
        const issues = validateAnswers(questions, answers.answers);
        for (const issue of issues) expect(issue.message).toMatch(/^answers\[/);
        if (issues.length > 0) return;
        reached.settled += 1;
        const outcome = settleAnswers(questions, answers.answers);
        expect(ElicitationOutcomeSchema.safeParse(outcome).success).toBe(true);
        expect(outcome.answers).toEqual(resolveAnswers(questions, answers.answers).answers);
        // Every value the settled outcome carries passes its question's own rules.
        for (const each of questions) {
          for (const value of outcome.answers[each.id] ?? [])
            expect(valueProblem(each, value)).toBeUndefined();
        }
      }),
      { numRuns: RUNS, seed: SEED },
    );
    // The generators must reach the deep checks, not only the first refusal.
    expect(reached.asked).toBeGreaterThan(RUNS / 20);
    expect(reached.settled).toBeGreaterThan(RUNS / 100);
  }, 120_000);
});
