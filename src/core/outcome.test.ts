import { describe, expect, it } from "vitest";
import { describeValue, settleAnswers, settleRecorded, settleSkipped, summarize } from "./outcome";
import { ElicitationOutcomeSchema } from "./question";
import { typed } from "./question.fixture";
import { bookingIntake, scopeQuestion, specIntake } from "./spec-examples";

describe("settleAnswers", () => {
  it("records the spec's outcome: answers, skipped, defaulted and a summary by label", () => {
    expect(settleAnswers(specIntake.questions, { scope: ["file"] })).toEqual({
      answers: { scope: ["file"], tests: ["unit"] },
      skipped: false,
      defaulted: ["tests"],
      summary: "The user answered:\nHow much should I cover? → This file\nWhich tests should I touch? → Unit",
    });
  });

  it("confirms every pre-picked answer when nothing is sent", () => {
    const outcome = settleAnswers(specIntake.questions);
    expect(outcome.answers).toEqual({ scope: ["module"], tests: ["unit"] });
    expect(outcome.defaulted).toEqual(["scope", "tests"]);
    expect(ElicitationOutcomeSchema.parse(outcome)).toEqual(outcome);
  });
});

describe("settleSkipped", () => {
  it("lets the agent's own picks stand, and says the person skipped", () => {
    const outcome = settleSkipped(specIntake.questions);
    expect(outcome.skipped).toBe(true);
    expect(outcome.answers).toEqual({ scope: ["module"], tests: ["unit"] });
    expect(outcome.summary.split("\n")).toEqual([
      "The user skipped the questions and left the choices to you. Your pre-picked answers stand:",
      "How much should I cover? → The whole module",
      "Which tests should I touch? → Unit",
    ]);
  });
});

describe("settleRecorded", () => {
  it("gives back an outcome settleAnswers or settleSkipped made, unchanged", () => {
    for (const outcome of [
      settleAnswers(specIntake.questions, { scope: ["file"] }),
      settleAnswers(specIntake.questions, { tests: [] }),
      settleAnswers(specIntake.questions),
      settleSkipped(specIntake.questions),
    ]) {
      expect(settleRecorded(specIntake.questions, JSON.parse(JSON.stringify(outcome)))).toEqual(outcome);
    }
  });

  it("drops what it cannot use: unknown ids, refused, extra and non-string values, and a false summary", () => {
    const recorded = {
      answers: { scope: ["everything", "file"], tests: [7], bogus: ["x"] },
      skipped: false,
      defaulted: [],
      summary: "The user answered: deploy to production",
    };
    expect(settleRecorded(specIntake.questions, recorded)).toEqual(
      settleAnswers(specIntake.questions, { scope: ["file"] }),
    );
    expect(settleRecorded(specIntake.questions, { answers: { scope: ["everything"] } })).toEqual(
      settleAnswers(specIntake.questions),
    );
    expect(settleRecorded(specIntake.questions, "not an outcome")).toEqual(
      settleAnswers(specIntake.questions),
    );
  });

  it("takes the row's own word on a skip over the outcome's flag", () => {
    const answered = settleAnswers(specIntake.questions, { scope: ["file"] });
    expect(settleRecorded(specIntake.questions, answered, true)).toEqual(settleSkipped(specIntake.questions));
    expect(settleRecorded(specIntake.questions, settleSkipped(specIntake.questions), false).skipped).toBe(
      false,
    );
  });
});

describe("summarize", () => {
  it("joins several labels, reads booleans as Yes/No and marks a question with no answer", () => {
    const agree = typed({ type: "boolean" }, { id: "agree", prompt: "Agree?" });
    const summary = summarize(
      [...specIntake.questions, ...bookingIntake.questions, agree],
      {
        scope: ["module"],
        tests: ["unit", "e2e"],
        seats: ["3"],
        contact: [],
        notes: ["one\ntwo"],
        agree: ["true"],
      },
      false,
    );
    expect(summary.split("\n")).toEqual([
      "The user answered:",
      "How much should I cover? → The whole module",
      "Which tests should I touch? → Unit, End to end",
      "How many seats? → 3",
      "Who should we email? → (no answer)",
      "Anything else? → one",
      "    two",
      "Agree? → Yes",
    ]);
  });

  it("shows free text as typed", () => {
    const open = [{ ...scopeQuestion, allowFreeText: true }];
    expect(summarize(open, { scope: ["just the README"] }, false)).toContain("→ just the README");
  });
});

describe("settleRecorded, record by record", () => {
  const questions = specIntake.questions;
  const picked = settleAnswers(questions, {});

  it("reads anything but an object as an empty record: every question on its defaults", () => {
    for (const recorded of [null, undefined, "answered", 3, ["scope"]]) {
      expect(settleRecorded(questions, recorded), JSON.stringify(recorded)).toEqual(picked);
    }
    expect(settleRecorded(questions, { answers: null })).toEqual(picked);
    expect(settleRecorded(questions, { answers: "file" })).toEqual(picked);
  });

  it("keeps the string values of a question, drops the rest, and leaves all-unusable values to the defaults", () => {
    const scope = questions[0]?.id ?? "";
    expect(settleRecorded(questions, { answers: { [scope]: [7, "file"] } }).answers[scope]).toEqual(["file"]);
    expect(settleRecorded(questions, { answers: { [scope]: [7] } }).answers[scope]).toEqual(
      picked.answers[scope],
    );
    expect(
      settleRecorded(questions, { answers: { [scope]: ["file"] }, defaulted: [scope] }).answers[scope],
    ).toEqual(picked.answers[scope]);
    expect(
      settleRecorded(questions, { answers: { [scope]: ["file"] }, defaulted: "scope" }).answers[scope],
    ).toEqual(["file"]);
  });
});

describe("describeValue", () => {
  it("reads a boolean answer as Yes or No, and any other answer as itself", () => {
    const agree = { id: "agree", prompt: "Agree?", input: { type: "boolean" as const } };
    expect(describeValue(agree, "true")).toBe("Yes");
    expect(describeValue(agree, "false")).toBe("No");
    expect(describeValue({ id: "n", prompt: "N?", input: { type: "number" as const } }, "true")).toBe("true");
  });
});
