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

// Each definition rule both ways: at its bound the definition passes, past it the rule reports.
describe("definition bounds, at and past each one", () => {
  const multiple = (extra: Partial<Question> = {}): Question =>
    choice({ multiple: true, defaults: ["file", "module"], ...extra });

  it("takes min equal to max and refuses min above max, for numbers, dates and lengths alike", () => {
    expect(messages([typed({ type: "number", min: 3, max: 3 })])).toEqual([]);
    expect(messages([typed({ type: "number", min: 4, max: 3 })])).toEqual([
      'questions["q"].input.min must not be greater than input.max',
    ]);
    expect(messages([typed({ type: "date", min: "2026-01-02", max: "2026-01-02" })])).toEqual([]);
    expect(messages([typed({ type: "date", min: "2026-01-03", max: "2026-01-02" })])).toEqual([
      'questions["q"].input.min must not be greater than input.max',
    ]);
    expect(messages([typed({ type: "text", min: 0, max: 0 })])).toEqual([]);
    expect(messages([typed({ type: "text", min: 2 })])).toEqual([]);
    expect(messages([typed({ type: "text", max: 2 })])).toEqual([]);
  });

  it("refuses a bound that is not a real day, time or whole length, and says which", () => {
    expect(messages([typed({ type: "date", min: "2026-02-30" })])).toEqual([
      'questions["q"].input.min must be a date written YYYY-MM-DD on a date question',
    ]);
    expect(messages([typed({ type: "date", max: 20260101 })])).toEqual([
      'questions["q"].input.max must be a date written YYYY-MM-DD on a date question',
    ]);
    expect(messages([typed({ type: "datetime", min: "2026-01-01T24:00" })])).toEqual([
      'questions["q"].input.min must be a date and time written YYYY-MM-DDTHH:mm on a datetime question',
    ]);
    expect(messages([typed({ type: "text", min: -1 })])).toEqual([
      'questions["q"].input.min must be a whole number of characters',
    ]);
    expect(messages([typed({ type: "text", max: 1.5 })])).toEqual([
      'questions["q"].input.max must be a whole number of characters',
    ]);
    expect(messages([typed({ type: "number", min: -1.5 })])).toEqual([]);
    expect(messages([typed({ type: "boolean" })])).toEqual([]);
  });

  it("takes minItems equal to maxItems and to the number of options, and refuses one more", () => {
    expect(messages([multiple({ minItems: 2, maxItems: 2 })])).toEqual([]);
    expect(messages([multiple({ minItems: 3, maxItems: 2 })])).toEqual([
      'questions["scope"].minItems must not be greater than maxItems',
      'questions["scope"].minItems must not be greater than the number of options, 2',
      'questions["scope"].defaults must hold at least 3 values, not 2',
    ]);
    expect(messages([multiple({ minItems: 2 })])).toEqual([]);
    expect(messages([multiple({ minItems: 3 })])).toEqual([
      'questions["scope"].minItems must not be greater than the number of options, 2',
      'questions["scope"].defaults must hold at least 3 values, not 2',
    ]);
    // Free text may add answers beyond the options.
    expect(
      messages([multiple({ minItems: 3, allowFreeText: true, defaults: ["file", "module", "repo"] })]),
    ).toEqual([]);
    expect(messages([multiple({ maxItems: 1, defaults: ["file"] })])).toEqual([]);
  });

  it("checks the defaults' count against minItems and maxItems, and leaves no defaults alone", () => {
    // No defaults is its own problem, not a count of zero.
    expect(messages([multiple({ minItems: 2, defaults: [] })])).toEqual([
      'questions["scope"].defaults must pre-pick at least one option: the answer you would choose',
    ]);
    expect(messages([multiple({ minItems: 2, defaults: ["file", "module"] })])).toEqual([]);
    expect(messages([multiple({ minItems: 2, defaults: ["file"] })])).toEqual([
      'questions["scope"].defaults must hold at least 2 values, not 1',
    ]);
    expect(messages([multiple({ maxItems: 1, defaults: ["file", "module"] })])).toEqual([
      'questions["scope"].defaults must hold at most 1 value, not 2',
    ]);
  });

  it("names a question without an id by its place", () => {
    expect(checkQuestions([choice(), { ...typed({ type: "number", min: 4, max: 3 }), id: "" }])).toEqual([
      {
        path: "questions[1].input.min",
        message: "questions[1].input.min must not be greater than input.max",
      },
    ]);
  });

  it("says which type a misplaced schemes or options sits on", () => {
    expect(messages([typed({ type: "text", schemes: ["https"] })])).toEqual([
      'questions["q"].input.schemes are only for url questions, not text',
    ]);
    expect(messages([{ ...typed({ type: "number" }), options: [{ value: "a", label: "A" }] }])).toEqual([
      'questions["q"].options are only for plain and select questions, not number',
    ]);
  });
});

describe("withHotkeys when keys run out or none is missing", () => {
  it("leaves a question whose options all have hotkeys as it is, and an option with no free key without one", () => {
    const all = choice({
      options: [
        { value: "file", label: "File", hotkey: "f" },
        { value: "module", label: "Module", hotkey: "m" },
      ],
    });
    expect(withHotkeys(all)).toBe(all);
    const many = choice({
      options: Array.from({ length: 40 }, (_, index) => ({ value: `v${index}`, label: `V${index}` })),
    });
    const keys = (withHotkeys(many).options ?? []).map((option) => option.hotkey);
    expect(keys.slice(0, 3)).toEqual(["a", "b", "c"]);
    expect(keys.filter((key) => key !== undefined)).toHaveLength(35);
    expect(keys.at(-1)).toBeUndefined();
  });
});
