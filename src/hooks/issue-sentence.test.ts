import { describe, expect, it } from "vitest";
import { type AnswerIssue, validateAnswers } from "@/lib/prepick/core/answers";
import { settleAnswers, settleSkipped } from "@/lib/prepick/core/outcome";
import type { Question } from "@/lib/prepick/core/question";
import { scopeQuestion as scope } from "@/lib/prepick/core/spec-examples";
import type { Rule } from "@/lib/prepick/core/value-problem";
import { createElicitation } from "./create-elicitation";
import { describeOutcome } from "./describe-outcome";
import { formatAnswer } from "./format-answer";
import { characterCount, issueSentence } from "./issue-sentence";
import { englishMessages, type PrepickMessages, resolveMessages } from "./prepick-messages";

const en: PrepickMessages = { ...englishMessages, locale: "en-US" };

const seats: Question = {
  id: "seats",
  prompt: "How many seats?",
  input: { type: "number", min: 1, max: 9, required: true },
};
const contact: Question = {
  id: "contact",
  prompt: "Who should we email?",
  input: { type: "email", required: true },
};
const notes: Question = { id: "notes", prompt: "Anything else?", input: { type: "textarea", max: 500 } };
const nick: Question = { id: "nick", prompt: "A nickname?", input: { type: "text", min: 3 } };
const when: Question = {
  id: "when",
  prompt: "Which day?",
  input: { type: "date", min: "2026-01-01", max: "2026-12-31" },
};
const site: Question = { id: "site", prompt: "Which site?", input: { type: "url" } };
const branch: Question = {
  id: "branch",
  prompt: "Branch?",
  input: { type: "text", pattern: "[a-z]+(-[a-z]+)*", placeholder: "fix-login" },
};
const agree: Question = { id: "agree", prompt: "Agree?", input: { type: "boolean" } };

/** The sentence for the first issue the core's own check finds with `values`. */
function sentenceFor(question: Question, values: string[]): string {
  const [issue] = validateAnswers([question], { [question.id]: values });
  if (!issue) throw new Error(`${JSON.stringify(values)} passes ${question.id}`);
  return issueSentence(issue, question, values, en);
}

/** An issue of a rule this version does not know, as a newer server could send. */
function unknownRule(rule: string, questionId: string, value?: string): AnswerIssue {
  return {
    questionId,
    rule: rule as Rule,
    message: `answers["${questionId}"] …`,
    ...(value ? { value } : {}),
  };
}

describe("issueSentence, from the core's own refusals", () => {
  it.each([
    [seats, ["12"], "Enter a number from 1 to 9."],
    [seats, ["0"], "Enter a number from 1 to 9."],
    [seats, ["many"], "Enter a number from 1 to 9."],
    [seats, [], "“\u2068How many seats?\u2069” needs an answer."],
    [contact, ["team at example"], "Enter an email address, like name@example.com."],
    [notes, ["x".repeat(512)], "At most 500 characters (512 now)."],
    [nick, ["ab"], "At least 3 characters (2 now)."],
    [when, ["2027-02-01"], "Pick a date from Jan 1, 2026 to Dec 31, 2026."],
    [when, ["2026-02-30"], "Enter a date, like 2026-12-04."],
    [site, ["example.com"], "Enter a web address, like https://example.com."],
    [branch, ["Not A Branch"], "Enter it in the form asked for (fix-login)."],
    [scope, ["everything"], "Choose one of the options."],
    [scope, ["file", "module"], "Choose only one."],
    [agree, ["maybe"], "Choose Yes or No."],
  ] as const)("%o refusing %o says %o", (question, values, sentence) => {
    expect(sentenceFor(question, [...values])).toBe(sentence);
  });

  it("never shows a person the API's string, for any refusal the core makes", () => {
    const cases: [Question, string[]][] = [
      [seats, ["12"]],
      [seats, ["x"]],
      [seats, []],
      [contact, ["@"]],
      [contact, []],
      [notes, ["y".repeat(501)]],
      [nick, [""]],
      [when, ["2025-12-31"]],
      [when, ["tomorrow"]],
      [site, ["ftp example"]],
      [branch, ["UPPER"]],
      [scope, ["nope"]],
      [scope, ["file", "module"]],
      [agree, ["2"]],
      [{ ...seats, input: { type: "number", step: 1 } }, ["2.5"]],
      [{ ...scope, multiple: true, minItems: 1, maxItems: 1 }, []],
      [{ ...scope, multiple: true, maxItems: 1 }, ["file", "module"]],
      [site, ["javascript:alert(1)"]],
      [{ id: "at", prompt: "When?", input: { type: "datetime" } }, ["noon"]],
      [branch, ["a".repeat(3000)]],
    ];
    for (const [question, values] of cases) {
      for (const issue of validateAnswers([question], { [question.id]: values })) {
        const sentence = issueSentence(issue, question, values, en);
        expect(sentence).not.toContain("answers[");
        expect(sentence).not.toBe(en.errors.refused);
      }
    }
    const [stray] = validateAnswers([seats], { gone: ["1"] });
    expect(stray && issueSentence(stray, undefined, [], en)).toBe(en.errors.unknownQuestion);
  });

  it("counts one character in the singular", () => {
    const one: Question = { id: "one", prompt: "One letter?", input: { type: "text", max: 1 } };
    expect(sentenceFor(one, ["ab"])).toBe("At most 1 character (2 now).");
  });

  it("writes bounds for the locale", () => {
    const big: Question = { id: "n", prompt: "How many?", input: { type: "number", min: 1000, max: 25000 } };
    const [issue] = validateAnswers([big], { n: ["12"] });
    if (!issue) throw new Error("expected a refusal");
    expect(issueSentence(issue, big, ["12"], en)).toBe("Enter a number from 1,000 to 25,000.");
    expect(issueSentence(issue, big, ["12"], { ...en, locale: "de-DE" })).toBe(
      "Enter a number from 1.000 to 25.000.",
    );
  });

  it("reads a rule this version does not know as a plain refusal", () => {
    expect(issueSentence(unknownRule("brand-new", "seats"), seats, ["3"], en)).toBe(
      "This answer was not accepted.",
    );
  });
});

describe("issueSentence, for whole numbers, counts, schemes, dates and times, and long values", () => {
  it("says whole numbers for a step of 1, and the step otherwise", () => {
    const whole: Question = { ...seats, input: { type: "number", min: 1, max: 9, step: 1 } };
    expect(sentenceFor(whole, ["2.5"])).toBe("Enter a whole number from 1 to 9.");
    const halves: Question = { ...seats, input: { type: "number", min: 0, step: 0.5 } };
    expect(sentenceFor(halves, ["0.3"])).toBe("Enter a number of at least 0, in steps of 0.5.");
  });

  it("counts the picks of a multiple-choice question", () => {
    const tests: Question = {
      id: "tests",
      prompt: "Which tests?",
      multiple: true,
      options: [
        { value: "unit", label: "Unit" },
        { value: "e2e", label: "End to end" },
        { value: "bench", label: "Benchmarks" },
      ],
      minItems: 2,
      maxItems: 2,
    };
    expect(sentenceFor(tests, ["unit"])).toBe("Pick at least 2.");
    expect(sentenceFor({ ...tests, minItems: 1 }, [])).toBe("Pick at least 1.");
    expect(sentenceFor(tests, ["unit", "e2e", "bench"])).toBe("Pick at most 2.");
  });

  it("names the schemes a web address may start with", () => {
    expect(sentenceFor(site, ["javascript:alert(document.domain)"])).toBe(
      "Enter a web address starting with http:// or https://.",
    );
    const mail: Question = { ...site, input: { type: "url", schemes: ["https", "mailto"] } };
    expect(sentenceFor(mail, ["ftp://x"])).toBe("Enter a web address starting with https:// or mailto:.");
  });

  it("says how long a value checked against a pattern may be", () => {
    expect(sentenceFor(branch, ["a".repeat(5000)])).toBe("At most 2,048 characters (5,000 now).");
  });

  it("asks for a date and time, and writes its range for the locale", () => {
    const meeting: Question = {
      id: "meeting",
      prompt: "When?",
      input: { type: "datetime", min: "2026-12-04T09:00" },
    };
    expect(sentenceFor(meeting, ["tomorrow at 10"])).toBe("Enter a date and time, like 2026-12-04 14:30.");
    expect(sentenceFor(meeting, ["2026-12-01T09:00"])).toBe("Pick a date on or after Dec 4, 2026, 9:00 AM.");
  });
});

describe("characterCount", () => {
  it("counts capped text live, with what is left or how many too many", () => {
    expect(characterCount(notes, "Window seats", en)).toEqual({
      count: 12,
      max: 500,
      text: "488 characters left",
    });
    expect(characterCount(notes, "z".repeat(499), en)?.text).toBe("1 character left");
    expect(characterCount(notes, "z".repeat(512), en)?.text).toBe("12 characters too many");
    expect(characterCount(seats, "3", en)).toBeUndefined();
    expect(characterCount(contact, "a@b.co", en)).toBeUndefined();
  });
});

describe("messages", () => {
  it("lays an app's strings over the English defaults, section by section", () => {
    const german = resolveMessages({ locale: "de-DE", errors: { required: () => "Bitte beantworten." } });
    expect(german.errors.required("Wie viele?")).toBe("Bitte beantworten.");
    expect(german.errors.email).toBe(englishMessages.errors.email);
    expect(german.form.next).toBe("Next");
    expect(german.locale).toBe("de-DE");
    expect(resolveMessages(undefined)).toBe(englishMessages);
  });

  it("reach the block: its errors and settled answers are in the app's language and locale", async () => {
    const block = createElicitation({
      id: "de",
      request: {
        questions: [{ ...seats, input: { type: "number", min: 1, max: 9999, required: true } }, contact],
      },
      messages: { locale: "de-DE", errors: { required: (prompt) => `${prompt}: bitte beantworten.` } },
    });
    block.setValue("contact", "");
    expect(block.getQuestion("contact")?.error).toBe("\u2068Who should we email?\u2069: bitte beantworten.");
    block.setValue("seats", "12000");
    expect(block.getQuestion("seats")?.error).toBe("Enter a number from 1 to 9.999.");
    block.setValue("seats", "1234");
    block.setValue("contact", "sam@example.com");
    await block.submit();
    expect(block.getSnapshot().settled?.answers[0]?.labels).toEqual(["1.234"]);
  });
});

describe("the settled view's data", () => {
  const set: Question[] = [scope, contact, { ...agree, defaults: ["true"] }, when];

  it("formats answers for the person: labels, Yes/No, numbers and dates for the locale", () => {
    expect(formatAnswer(agree, "true", en)).toBe("Yes");
    expect(formatAnswer(seats, "1234.5", en)).toBe("1,234.5");
    expect(formatAnswer(seats, "0.0000001", en)).toBe("0.0000001");
    expect(formatAnswer(when, "2026-12-04", en)).toBe("Dec 4, 2026");
    expect(formatAnswer(when, "2026-12-04", { ...en, locale: "fr-FR" })).toBe("4 déc. 2026");
    expect(formatAnswer(scope, "file", en)).toBe("This file");
    expect(formatAnswer(notes, "as typed", en)).toBe("as typed");
  });

  it("says whose answer stands: the person's, the agent's pick, nothing, or left to the agent", () => {
    const answered = describeOutcome(set, settleAnswers(set, { scope: ["file"], contact: ["a@b.co"] }), en);
    expect(answered.answers.map((answer) => answer.kind)).toEqual([
      "answered",
      "answered",
      "pre-picked",
      "no-answer",
    ]);
    const skipped = describeOutcome(set, settleSkipped(set), en);
    expect(skipped.skipped).toBe(true);
    expect(skipped.answers.map((answer) => [answer.labels, answer.kind])).toEqual([
      [["The whole module"], "pre-picked"],
      [[], "left-to-agent"],
      [["Yes"], "pre-picked"],
      [[], "left-to-agent"],
    ]);
  });
});
