import { describe, expect, it } from "vitest";
import { checkIntake, intakeRequest } from "./intake";
import { bookingIntake, seatsQuestion, specIntake } from "./spec-examples";

describe("checkIntake", () => {
  it("accepts the spec's intake, asks at thread start by default and assigns missing hotkeys", () => {
    const checked = checkIntake({ preamble: "Two questions.", questions: specIntake.questions });
    expect(checked.success).toBe(true);
    if (!checked.success) return;
    expect(checked.intake.when).toBe("thread-start");
    expect(checked.intake.questions[0]?.options?.map((option) => option.hotkey)).toEqual(["a", "b", "c"]);
    expect(checked.intake.questions[1]?.options?.map((option) => option.hotkey)).toEqual(["a", "b"]);
    expect(intakeRequest(checked.intake)).toEqual({
      preamble: "Two questions.",
      questions: checked.intake.questions,
      source: "intake",
    });
  });

  it("keeps every-turn", () => {
    const checked = checkIntake({ questions: bookingIntake.questions, when: "every-turn" });
    expect(checked.success && checked.intake.when).toBe("every-turn");
  });

  it("refuses an intake whose default fails its own rules, naming the question and the rule", () => {
    const seats = { ...seatsQuestion, defaults: ["10"] };
    const checked = checkIntake({ questions: [seats] });
    expect(checked).toEqual({
      success: false,
      issues: [
        {
          questionId: "seats",
          path: "questions[0].defaults[0]",
          message: 'questions["seats"].defaults[0] "10" must be at most 9',
        },
      ],
    });
  });

  it("refuses a malformed intake with the path of the bad field", () => {
    const checked = checkIntake({ questions: [], when: "sometimes" });
    expect(checked.success ? [] : checked.issues.map((issue) => issue.path)).toEqual(["questions", "when"]);
  });
});
