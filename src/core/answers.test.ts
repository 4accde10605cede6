import { describe, expect, it } from "vitest";
import { parseAnswers, resolveAnswers, validateAnswers } from "./answers";
import type { Question } from "./question";
import { typed } from "./question.fixture";
import { bookingIntake, specIntake } from "./spec-examples";

function messages(questions: readonly Question[], answers: Record<string, string[]>): string[] {
  return validateAnswers(questions, answers).map((issue) => issue.message);
}

describe("validateAnswers", () => {
  it("says the spec's sentence for a number over its maximum", () => {
    expect(validateAnswers(bookingIntake.questions, { seats: ["12"], contact: ["ada@example.com"] })).toEqual(
      [{ questionId: "seats", rule: "max", value: "12", message: 'answers["seats"] must be at most 9' }],
    );
    expect(messages(bookingIntake.questions, { seats: ["0"], contact: ["a@b.co"] })).toEqual([
      'answers["seats"] must be at least 1',
    ]);
  });

  it("accepts an empty submission when every required question has a default", () => {
    expect(validateAnswers(specIntake.questions, {})).toEqual([]);
  });

  it("refuses a required question left with neither an answer nor a default", () => {
    expect(messages(bookingIntake.questions, {})).toEqual(['answers["contact"] is required']);
    expect(messages(bookingIntake.questions, { contact: ["a@b.co"], seats: [] })).toEqual([
      'answers["seats"] is required',
    ]);
    expect(messages(bookingIntake.questions, { contact: [""] })).toEqual(['answers["contact"] is required']);
  });

  it("refuses unknown question ids, including ones that look like object internals", () => {
    expect(messages(specIntake.questions, { colour: ["red"], ["__proto__"]: ["x"] })).toEqual([
      `answers["colour"] is not one of this set's questions`,
      `answers["__proto__"] is not one of this set's questions`,
    ]);
  });

  it("refuses a value that is not an option, unless free text is allowed", () => {
    expect(validateAnswers(specIntake.questions, { scope: ["everything"] })).toEqual([
      {
        questionId: "scope",
        rule: "option",
        value: "everything",
        message: 'answers["scope"] must be one of "file", "module", "importers"',
      },
    ]);
    const open = specIntake.questions.map((question) => ({ ...question, allowFreeText: true }));
    expect(validateAnswers(open, { scope: ["everything"] })).toEqual([]);
  });

  it("refuses more than one value without multiple", () => {
    expect(messages(specIntake.questions, { scope: ["file", "module"] })).toEqual([
      'answers["scope"] must hold one value, not 2',
    ]);
    expect(validateAnswers(specIntake.questions, { tests: ["unit", "e2e"] })).toEqual([]);
  });

  it("refuses numbers not written in decimals, which JavaScript's Number would read", () => {
    const seats = typed({ type: "number", min: 1, max: 9 });
    for (const value of ["0x5", "0b101", "0o7", "Infinity"]) {
      expect(messages([seats], { q: [value] })).toEqual([
        'answers["q"] must be a number written in decimals',
      ]);
    }
    // Decimal spellings of one number are one canonical value, and pass.
    expect(messages([seats], { q: ["5", "5.0", "05", "5e0"] })).toEqual([]);
  });

  it("requires a single-choice select as it does a plain question, and not a multiple one", () => {
    const options = [
      { value: "eu", label: "Europe" },
      { value: "us", label: "US" },
    ];
    const plain: Question = { id: "q", prompt: "Region?", options, defaults: ["eu"] };
    const select: Question = { ...plain, input: { type: "select" } };
    expect(messages([plain], { q: [] })).toEqual(['answers["q"] is required']);
    expect(messages([select], { q: [] })).toEqual(['answers["q"] is required']);
    expect(messages([{ ...select, multiple: true }], { q: [] })).toEqual([]);
    expect(messages([{ ...select, input: { type: "select", required: false } }], { q: [] })).toEqual([]);
  });

  it("refuses values of the wrong type", () => {
    const cases: [Question, string, string][] = [
      [typed({ type: "number" }), "twelve", 'answers["q"] must be a number written in decimals'],
      [typed({ type: "boolean" }), "maybe", 'answers["q"] must be true or false'],
      [typed({ type: "date" }), "2026-02-30", 'answers["q"] must be a date written YYYY-MM-DD'],
      [typed({ type: "email" }), "ada at example", 'answers["q"] must be an email address'],
      [typed({ type: "url" }), "example.com", 'answers["q"] must be a URL such as https://example.com'],
    ];
    for (const [question, value, message] of cases) {
      expect(messages([question], { q: [value] })).toEqual([message]);
    }
  });

  it("reads min and max as lengths for text and as days for dates", () => {
    const notes = typed({ type: "textarea", min: 2, max: 5 });
    expect(messages([notes], { q: ["a"] })).toEqual(['answers["q"] must be at least 2 characters']);
    expect(messages([notes], { q: ["abcdef"] })).toEqual(['answers["q"] must be at most 5 characters']);
    expect(messages([notes], { q: ["abc"] })).toEqual([]);
    const day = typed({ type: "date", min: "2026-01-01", max: "2026-12-31" });
    expect(messages([day], { q: ["2025-12-31"] })).toEqual(['answers["q"] must be on or after 2026-01-01']);
    expect(messages([day], { q: ["2027-01-01"] })).toEqual(['answers["q"] must be on or before 2026-12-31']);
    expect(messages([day], { q: ["2026-6-1"] })).toEqual([]);
  });

  it("requires the pattern to match the whole value", () => {
    const code = typed({ type: "text", pattern: "[A-Z]{3}" });
    expect(messages([code], { q: ["xABCx"] })).toEqual(['answers["q"] must match the pattern [A-Z]{3}']);
    expect(messages([code], { q: ["ABC"] })).toEqual([]);
  });

  it("coerces before it validates", () => {
    expect(messages(bookingIntake.questions, { seats: ["09"], contact: ["a@b.co"] })).toEqual([]);
  });
});

describe("parseAnswers", () => {
  it("reads a missing body as no answers", () => {
    expect(parseAnswers(undefined)).toEqual({ success: true, answers: {} });
  });

  it("says which field is not an array of strings", () => {
    expect(parseAnswers({ scope: "file", tests: ["unit"], seats: [2] })).toEqual({
      success: false,
      issues: [
        {
          questionId: "scope",
          rule: "shape",
          message: 'answers["scope"] must be an array of strings, such as ["yes"]',
        },
        {
          questionId: "seats",
          rule: "shape",
          message: 'answers["seats"] must be an array of strings, such as ["yes"]',
        },
      ],
    });
    expect(parseAnswers(["file"])).toMatchObject({ success: false });
    expect(parseAnswers("file")).toMatchObject({ success: false });
  });

  it("keeps a __proto__ key as data without touching any prototype", () => {
    const parsed = parseAnswers(JSON.parse('{"__proto__": ["x"], "scope": ["file"]}'));
    expect(parsed.success).toBe(true);
    if (!parsed.success) return;
    expect(Object.keys(parsed.answers)).toEqual(["__proto__", "scope"]);
    expect(Object.getPrototypeOf(parsed.answers)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>).x).toBeUndefined();
  });
});

describe("resolveAnswers", () => {
  it("fills omitted questions from their own defaults and lists them as defaulted", () => {
    expect(resolveAnswers(specIntake.questions, { scope: ["file"] })).toEqual({
      answers: { scope: ["file"], tests: ["unit"] },
      defaulted: ["tests"],
    });
  });

  it("does not count an explicit pick of the pre-picked value as defaulted", () => {
    expect(resolveAnswers(specIntake.questions, { scope: ["module"], tests: ["unit"] }).defaulted).toEqual(
      [],
    );
  });

  it("keeps an explicit empty answer empty", () => {
    expect(resolveAnswers(specIntake.questions, { tests: [] }).answers.tests).toEqual([]);
  });

  it("drops what it cannot use and falls back to defaults when nothing usable is left", () => {
    const resolved = resolveAnswers(bookingIntake.questions, {
      seats: ["12"],
      contact: ["a@b.co", "c@d.co"],
      unknown: ["x"],
    });
    expect(resolved).toEqual({
      answers: { seats: ["2"], contact: ["a@b.co"], notes: [] },
      defaulted: ["seats"],
    });
  });

  it("stores canonical values", () => {
    expect(resolveAnswers(bookingIntake.questions, { seats: ["007"] }).answers.seats).toEqual(["7"]);
  });
});

describe("parseAnswers, shape by shape", () => {
  it("reads nothing as no answers, and refuses anything but an object of string arrays", () => {
    expect(parseAnswers(undefined)).toEqual({ success: true, answers: {} });
    expect(parseAnswers(null)).toEqual({ success: true, answers: {} });
    const shape = {
      success: false,
      issues: [
        {
          questionId: "",
          rule: "shape",
          message: "answers must be an object mapping question ids to arrays of strings",
        },
      ],
    };
    expect(parseAnswers(["file"])).toEqual(shape);
    expect(parseAnswers("file")).toEqual(shape);
    expect(parseAnswers({ scope: ["file", 2] })).toMatchObject({
      success: false,
      issues: [{ questionId: "scope", rule: "shape" }],
    });
    expect(parseAnswers({ scope: ["file"] })).toEqual({ success: true, answers: { scope: ["file"] } });
  });
});
