import { describe, expect, it } from "vitest";
import { checkQuestions, withHotkeys } from "./check-questions";
import type { Question } from "./question";
import { typed } from "./question.fixture";
import { bookingIntake, specIntake } from "./spec-examples";

function messages(questions: Question[]): string[] {
  return checkQuestions(questions).map((issue) => issue.message);
}

const choice = (extra: Partial<Question> = {}): Question => ({
  id: "scope",
  prompt: "How much?",
  options: [
    { value: "file", label: "This file" },
    { value: "module", label: "The whole module" },
  ],
  defaults: ["file"],
  ...extra,
});

describe("checkQuestions", () => {
  it("accepts the spec's intake and the spec's typed questions", () => {
    expect(checkQuestions(specIntake.questions)).toEqual([]);
    expect(checkQuestions(bookingIntake.questions)).toEqual([]);
  });

  it("refuses a duplicate id and names the question", () => {
    expect(messages([choice(), choice()])).toEqual(['questions["scope"].id is used by another question']);
  });

  it("refuses ids that collide with object internals", () => {
    expect(messages([choice({ id: "__proto__" })])).toEqual(['questions["__proto__"].id is a reserved name']);
    // A plain object's own members would be found by a lookup by id in a draft or an answers record.
    for (const id of ["toString", "valueOf", "hasOwnProperty", "constructor"]) {
      expect(messages([choice({ id })])).toEqual([`questions["${id}"].id is a reserved name`]);
    }
  });

  it("requires a plain question to list options and to pre-pick one", () => {
    expect(messages([{ id: "x", prompt: "X?" }])).toEqual([
      'questions["x"].options must list at least one option to pick from',
      'questions["x"].defaults must pre-pick at least one option: the answer you would choose',
    ]);
    expect(messages([choice({ defaults: [] })])).toEqual([
      'questions["scope"].defaults must pre-pick at least one option: the answer you would choose',
    ]);
  });

  it("lets a set another protocol asks leave a choice unpicked, and still checks what it does pick", () => {
    const unpicked = { unpickedChoices: true };
    expect(checkQuestions([choice({ defaults: undefined })], unpicked)).toEqual([]);
    expect(checkQuestions([choice({ multiple: true, defaults: [] })], unpicked)).toEqual([]);
    expect(checkQuestions([choice({ defaults: ["nope"] })], unpicked).map((issue) => issue.message)).toEqual([
      'questions["scope"].defaults[0] "nope" must be one of "file", "module"',
    ]);
  });

  it("treats a select like a plain question", () => {
    expect(messages([choice({ input: { type: "select" }, defaults: undefined })])).toEqual([
      'questions["scope"].defaults must pre-pick at least one option: the answer you would choose',
    ]);
    expect(messages([choice({ input: { type: "select" }, defaults: ["nope"] })])).toEqual([
      'questions["scope"].defaults[0] "nope" must be one of "file", "module"',
    ]);
  });

  it("lets a typed question leave options and defaults out", () => {
    expect(checkQuestions([typed({ type: "email", required: true })])).toEqual([]);
    expect(checkQuestions([typed({ type: "date" })])).toEqual([]);
  });

  it("refuses options on a typed question that is not a select", () => {
    expect(messages([typed({ type: "number" }, { options: [{ value: "1", label: "One" }] })])).toEqual([
      'questions["q"].options are only for plain and select questions, not number',
    ]);
  });

  it("refuses a default that fails its own question's rules", () => {
    const seats = typed({ type: "number", min: 1, max: 9 }, { id: "seats", defaults: ["12"] });
    expect(checkQuestions([seats])).toEqual([
      {
        questionId: "seats",
        path: "questions[0].defaults[0]",
        message: 'questions["seats"].defaults[0] "12" must be at most 9',
      },
    ]);
    expect(messages([choice({ defaults: ["everything"] })])).toEqual([
      'questions["scope"].defaults[0] "everything" must be one of "file", "module"',
    ]);
    expect(messages([typed({ type: "text", pattern: "[A-Z]+" }, { defaults: ["abc"] })])).toEqual([
      'questions["q"].defaults[0] "abc" must match the pattern [A-Z]+',
    ]);
  });

  it("asks for defaults in canonical form", () => {
    expect(messages([typed({ type: "number" }, { defaults: ["02"] })])).toEqual([
      'questions["q"].defaults[0] "02" must be written "2"',
    ]);
  });

  it("allows one default unless the question is multiple", () => {
    expect(messages([choice({ defaults: ["file", "module"] })])).toEqual([
      'questions["scope"].defaults must hold one value unless the question is multiple, not 2',
    ]);
    expect(checkQuestions([choice({ multiple: true, defaults: ["file", "module"] })])).toEqual([]);
  });

  it("refuses duplicate option values and bad, reserved or duplicate hotkeys", () => {
    const options = [
      { value: "a", label: "A", hotkey: "x" },
      { value: "a", label: "B", hotkey: "x" },
      { value: "c", label: "C", hotkey: "s" },
      { value: "d", label: "D", hotkey: "Enter" },
    ];
    expect(messages([choice({ options, defaults: ["a"] })])).toEqual([
      'questions["scope"].options[1].value "a" is used by another option',
      'questions["scope"].options[1].hotkey "x" is used by another option',
      'questions["scope"].options[2].hotkey "s" is reserved for skip',
      'questions["scope"].options[3].hotkey must be one lowercase letter or digit',
    ]);
  });

  it("reads min and max as numbers, lengths or dates, and checks their order", () => {
    expect(messages([typed({ type: "date", min: 3 })])).toEqual([
      'questions["q"].input.min must be a date written YYYY-MM-DD on a date question',
    ]);
    expect(messages([typed({ type: "number", min: "2026-01-01" })])).toEqual([
      'questions["q"].input.min must be a number',
    ]);
    expect(messages([typed({ type: "text", max: 2.5 })])).toEqual([
      'questions["q"].input.max must be a whole number of characters',
    ]);
    expect(messages([typed({ type: "number", min: 9, max: 1 })])).toEqual([
      'questions["q"].input.min must not be greater than input.max',
    ]);
    expect(checkQuestions([typed({ type: "date", min: "2026-01-01", max: "2026-12-31" })])).toEqual([]);
  });

  it("refuses a pattern RE2 cannot compile", () => {
    const [issue] = checkQuestions([typed({ type: "text", pattern: "(a)\\1" })]);
    expect(issue?.message).toMatch(/^questions\["q"\]\.input\.pattern is not a valid pattern: /);
  });
});

describe("withHotkeys", () => {
  it("assigns a, b, c… where none is given, keeping declared keys and never using s", () => {
    const labels = "abcdefghijklmnopqrstuvwxyz".split("");
    const question = withHotkeys(choice({ options: labels.map((l) => ({ value: l, label: l })) }));
    const keys = question.options?.map((option) => option.hotkey) ?? [];
    expect(keys).not.toContain("s");
    expect(keys.slice(0, 4)).toEqual(["a", "b", "c", "d"]);
    expect(keys[18]).toBe("t");
    expect(new Set(keys).size).toBe(keys.length);
  });

  it("skips keys already declared on other options", () => {
    const question = withHotkeys(
      choice({
        options: [
          { value: "one", label: "One" },
          { value: "two", label: "Two", hotkey: "a" },
        ],
        defaults: ["one"],
      }),
    );
    expect(question.options?.map((option) => option.hotkey)).toEqual(["b", "a"]);
    expect(checkQuestions([question])).toEqual([]);
  });

  it("leaves a question without options as it is", () => {
    const question = typed({ type: "text" });
    expect(withHotkeys(question)).toBe(question);
  });
});
