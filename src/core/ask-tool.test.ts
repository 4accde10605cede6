import { describe, expect, it } from "vitest";
import { describeAskIssues, MAX_ASK_QUESTIONS, parseAskInput } from "./ask-tool";
import { askToolJsonSchema } from "./ask-tool-schema";
import { notesQuestion, scopeQuestion, seatsQuestion, specIntake, testsQuestion } from "./spec-examples";

type JsonObject = { [key: string]: unknown };

function branches(): JsonObject[] {
  const questions = (askToolJsonSchema.properties as JsonObject).questions as JsonObject;
  return (questions.items as JsonObject).anyOf as JsonObject[];
}

/** The properties of a typed question's `input`, as the model sees them. */
function typedInput(): JsonObject {
  const typed = branches().find((branch) => (branch.required as string[]).includes("input")) ?? {};
  const input = ((typed.properties ?? {}) as JsonObject).input as JsonObject;
  return input.properties as JsonObject;
}

describe("the ask tool's schema", () => {
  it("caps a call at five questions", () => {
    const questions = (askToolJsonSchema.properties as JsonObject).questions as JsonObject;
    expect(MAX_ASK_QUESTIONS).toBe(5);
    expect(questions.maxItems).toBe(5);
    expect(questions.minItems).toBe(1);
  });

  it("requires defaults on every question that picks from options", () => {
    const choice = branches().find((branch) => (branch.required as string[]).includes("options"));
    expect(choice?.required).toEqual(expect.arrayContaining(["id", "prompt", "options", "defaults"]));
    expect((choice?.properties as JsonObject | undefined)?.defaults).toMatchObject({ minItems: 1 });
  });

  it("offers the model whole numbers, as input.step", () => {
    const step = typedInput().step as JsonObject;
    expect(step).toMatchObject({ type: "number" });
    expect(String(step.description)).toContain("whole numbers");
  });

  it("offers the model counts on multiple-choice questions, as minItems and maxItems", () => {
    for (const branch of branches()) {
      const properties = branch.properties as JsonObject;
      expect(properties.minItems).toMatchObject({ type: "integer", minimum: 0 });
      expect(properties.maxItems).toMatchObject({ type: "integer", minimum: 1 });
    }
  });

  it("offers the model local dates and times, and the schemes of a url", () => {
    expect((typedInput().type as JsonObject).enum).toContain("datetime");
    expect(typedInput().schemes).toMatchObject({
      type: "array",
      items: { enum: ["http", "https", "mailto"] },
    });
  });

  it("lets a typed question leave defaults out", () => {
    const typed = branches().find((branch) => (branch.required as string[]).includes("input"));
    expect(typed?.required).not.toContain("defaults");
  });
});

describe("parseAskInput", () => {
  it("turns a well-formed call into a request with hotkeys assigned", () => {
    const parsed = parseAskInput({ preamble: "Two things first.", questions: specIntake.questions });
    expect(parsed.success).toBe(true);
    if (!parsed.success) return;
    expect(parsed.request.source).toBe("ask");
    expect(parsed.request.preamble).toBe("Two things first.");
    expect(parsed.request.questions[1]?.options?.map((option) => option.hotkey)).toEqual(["a", "b"]);
  });

  it("refuses an option question with nothing pre-picked", () => {
    const scope = scopeQuestion;
    const parsed = parseAskInput({ questions: [{ ...scope, defaults: undefined }] });
    expect(parsed).toEqual({
      success: false,
      issues: [
        {
          questionId: "scope",
          path: "questions[0].defaults",
          message:
            'questions["scope"].defaults must pre-pick at least one option: the answer you would choose',
        },
      ],
    });
  });

  it("refuses more than five questions", () => {
    const questions = Array.from({ length: 6 }, (_, index) => ({
      ...notesQuestion,
      id: `q${index}`,
    }));
    const parsed = parseAskInput({ questions });
    expect(parsed.success).toBe(false);
    if (parsed.success) return;
    expect(parsed.issues.map((issue) => issue.message)).toEqual(["questions: must hold at most 5 questions"]);
  });

  it("refuses a default that breaks its own rule", () => {
    const seats = { ...seatsQuestion, defaults: ["12"] };
    const parsed = parseAskInput({ questions: [seats] });
    expect(parsed.success ? [] : parsed.issues.map((issue) => issue.message)).toEqual([
      'questions["seats"].defaults[0] "12" must be at most 9',
    ]);
  });

  it("keeps a whole-number question's step, and holds its default to it", () => {
    const whole = { ...seatsQuestion, input: { ...seatsQuestion.input, step: 1 } };
    const parsed = parseAskInput({ questions: [whole] });
    expect(parsed.success && parsed.request.questions[0]?.input?.step).toBe(1);
    const refused = parseAskInput({ questions: [{ ...whole, defaults: ["2.5"] }] });
    expect(refused.success ? [] : refused.issues.map((issue) => issue.message)).toEqual([
      'questions["seats"].defaults[0] "2.5" must be a whole number',
    ]);
  });

  it("keeps a multiple-choice question's counts, and holds its defaults to them", () => {
    const tests = { ...testsQuestion, minItems: 1, maxItems: 1 };
    const parsed = parseAskInput({ questions: [tests] });
    expect(parsed.success && parsed.request.questions[0]).toMatchObject({ minItems: 1, maxItems: 1 });
    const refused = parseAskInput({ questions: [{ ...tests, defaults: ["unit", "e2e"] }] });
    expect(refused.success ? [] : refused.issues.map((issue) => issue.message)).toEqual([
      'questions["tests"].defaults must hold at most 1 value, not 2',
    ]);
  });

  it("refuses a model's javascript: default on a url question", () => {
    const parsed = parseAskInput({
      questions: [
        { id: "site", prompt: "Which site?", input: { type: "url" }, defaults: ["javascript:alert(1)"] },
      ],
    });
    expect(parsed.success ? [] : parsed.issues.map((issue) => issue.message)).toEqual([
      'questions["site"].defaults[0] "javascript:alert(1)" must use the scheme http or https, not javascript',
    ]);
  });

  it("names the field of a call that is not shaped like questions", () => {
    const parsed = parseAskInput({ questions: [{ id: "x", prompt: 3 }] });
    expect(parsed.success ? [] : parsed.issues.map((issue) => issue.path)).toEqual(["questions[0].prompt"]);
    expect(parseAskInput("ask me").success).toBe(false);
  });

  it("writes the issues as a tool failure the model can act on", () => {
    const text = describeAskIssues([
      { path: "questions", message: "questions: must hold at most 5 questions" },
    ]);
    expect(text).toBe(
      "The questions were not asked. Fix these and call ask again:\n- questions: must hold at most 5 questions",
    );
  });
});
