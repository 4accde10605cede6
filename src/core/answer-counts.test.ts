import { describe, expect, it } from "vitest";
import { resolveAnswers, validateAnswers } from "./answers";
import { checkQuestions } from "./check-questions";
import type { Question } from "./question";

const tests: Question = {
  id: "tests",
  prompt: "Which tests?",
  multiple: true,
  options: [
    { value: "unit", label: "Unit" },
    { value: "e2e", label: "End to end" },
    { value: "bench", label: "Benchmarks" },
  ],
  minItems: 1,
  maxItems: 2,
  defaults: ["unit"],
};

function definition(question: Question): string[] {
  return checkQuestions([question]).map((issue) => issue.message);
}

describe("minItems and maxItems on a multiple-choice question", () => {
  it("refuses more picks than maxItems with its own rule", () => {
    expect(validateAnswers([tests], { tests: ["unit", "e2e", "bench"] })).toEqual([
      {
        questionId: "tests",
        rule: "max-items",
        message: 'answers["tests"] must hold at most 2 values, not 3',
      },
    ]);
    expect(validateAnswers([tests], { tests: ["unit", "e2e"] })).toEqual([]);
  });

  it("refuses an answer emptied below minItems, as JSON Schema counts an empty array", () => {
    expect(validateAnswers([tests], { tests: [] })).toEqual([
      {
        questionId: "tests",
        rule: "min-items",
        message: 'answers["tests"] must hold at least 1 value, not 0',
      },
    ]);
    const pair = { ...tests, minItems: 2, defaults: ["unit", "e2e"] };
    expect(validateAnswers([pair], { tests: ["bench"] }).map((issue) => issue.rule)).toEqual(["min-items"]);
  });

  it("counts canonical values: repeats and empty strings do not make up the number", () => {
    const pair = { ...tests, minItems: 2, defaults: ["unit", "e2e"] };
    expect(validateAnswers([pair], { tests: ["unit", "unit", ""] }).map((issue) => issue.rule)).toEqual([
      "min-items",
    ]);
  });

  it("leaves an omitted answer to its defaults, uncounted", () => {
    expect(validateAnswers([tests], {})).toEqual([]);
  });

  it("says required, not a count, for a required question left empty", () => {
    const required = { ...tests, input: { type: "select" as const, required: true } };
    expect(validateAnswers([required], { tests: [] }).map((issue) => issue.rule)).toEqual(["required"]);
  });

  it("resolves leniently: extra picks are cut at maxItems, too few fall back to the defaults", () => {
    expect(resolveAnswers([tests], { tests: ["e2e", "bench", "unit"] }).answers.tests).toEqual([
      "e2e",
      "bench",
    ]);
    expect(resolveAnswers([tests], { tests: [] })).toEqual({
      answers: { tests: ["unit"] },
      defaulted: ["tests"],
    });
  });

  it("is a definition issue off a multiple question, not whole, crossed, or beyond the options", () => {
    expect(definition(tests)).toEqual([]);
    expect(definition({ ...tests, multiple: false, defaults: ["unit"] })).toEqual([
      'questions["tests"].minItems is only for multiple questions',
      'questions["tests"].maxItems is only for multiple questions',
    ]);
    expect(definition({ ...tests, minItems: 1.5 })).toEqual([
      'questions["tests"].minItems must be a whole number from 0',
    ]);
    expect(definition({ ...tests, minItems: 3, maxItems: 2, defaults: ["unit", "e2e", "bench"] })).toContain(
      'questions["tests"].minItems must not be greater than maxItems',
    );
    expect(definition({ ...tests, minItems: 4, maxItems: undefined })).toContain(
      'questions["tests"].minItems must not be greater than the number of options, 3',
    );
    expect(definition({ ...tests, maxItems: 0, minItems: undefined, defaults: ["unit"] })).toContain(
      'questions["tests"].maxItems must be at least 1',
    );
  });

  it("holds the defaults to the count, as any value", () => {
    expect(definition({ ...tests, defaults: ["unit", "e2e", "bench"] })).toEqual([
      'questions["tests"].defaults must hold at most 2 values, not 3',
    ]);
    expect(definition({ ...tests, minItems: 2, defaults: ["unit"] })).toEqual([
      'questions["tests"].defaults must hold at least 2 values, not 1',
    ]);
  });
});
