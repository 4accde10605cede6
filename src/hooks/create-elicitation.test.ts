import { describe, expect, it, vi } from "vitest";
import { settleAnswers, settleSkipped } from "@/lib/prepick/core/outcome";
import type { ElicitationRequest } from "@/lib/prepick/core/question";
import { bookingIntake, scopeQuestion, seatsQuestion, testsQuestion } from "@/lib/prepick/core/spec-examples";
import { ToolCallError } from "@/lib/prepick/transport";
import { createElicitation } from "./create-elicitation";

const request: ElicitationRequest = {
  preamble: "Three questions before I start.",
  source: "intake",
  questions: [scopeQuestion, testsQuestion, seatsQuestion],
};

describe("createElicitation", () => {
  it("gives the block live questions with value, setValue(raw) and error, and a live isValid", () => {
    const block = createElicitation({ id: "intake-0", request });
    const seats = () => block.questions.find((question) => question.id === "seats");
    expect(seats()).toMatchObject({ prompt: "How many seats?", input: { type: "number" }, value: ["2"] });
    expect(block.isValid).toBe(true);
    seats()?.setValue(" 12 ");
    expect(seats()?.value).toEqual(["12"]);
    // The person reads a sentence; the API's own line stays on the issue.
    expect(seats()?.error).toBe("Enter a number from 1 to 9.");
    expect(seats()?.issues[0]).toMatchObject({ rule: "max", message: 'answers["seats"] must be at most 9' });
    expect(block.isValid).toBe(false);
    seats()?.setValue(3);
    expect(seats()?.value).toEqual(["3"]);
    expect(seats()?.error).toBeUndefined();
    expect(block.isValid).toBe(true);
  });

  it("starts pending with the defaults as values, valid, untouched", () => {
    const block = createElicitation({ id: "intake-1", request });
    const snapshot = block.getSnapshot();
    expect(block.source).toBe("intake");
    expect(block.preamble).toBe("Three questions before I start.");
    expect(snapshot.phase).toBe("pending");
    expect(snapshot.isValid).toBe(true);
    expect(snapshot.questions.map((q) => [q.id, q.value, q.touched])).toEqual([
      ["scope", ["module"], false],
      ["tests", ["unit"], false],
      ["seats", ["2"], false],
    ]);
  });

  it("confirming untouched submits no answers at all: the defaults are resolved by whoever settles", async () => {
    const sent: unknown[] = [];
    const block = createElicitation({
      id: "intake-1",
      request,
      onAnswer: async (answers) => {
        sent.push(answers);
        return settleAnswers(request.questions, answers);
      },
    });
    await block.submit();
    expect(sent).toEqual([{}]);
    const snapshot = block.getSnapshot();
    expect(snapshot.phase).toBe("settled");
    expect(snapshot.answer.status).toBe("settled");
    expect(snapshot.skip.status).toBe("settled");
    expect(snapshot.settled?.answers.map((a) => [a.questionId, a.labels, a.defaulted])).toEqual([
      ["scope", ["The whole module"], true],
      ["tests", ["Unit"], true],
      ["seats", ["2"], true],
    ]);
  });

  it("coerces setValue, submits only touched questions, and keeps other questions' identity", async () => {
    const sent: unknown[] = [];
    const block = createElicitation({
      id: "intake-1",
      request,
      onAnswer: async (answers) => {
        sent.push(answers);
        return settleAnswers(request.questions, answers);
      },
    });
    const scopeBefore = block.getQuestion("scope");
    const seatsBefore = block.getQuestion("seats");
    block.setValue("seats", "004");
    expect(block.getQuestion("seats")?.value).toEqual(["4"]);
    expect(block.getQuestion("seats")).not.toBe(seatsBefore);
    expect(block.getQuestion("scope")).toBe(scopeBefore);
    block.toggle("tests", "e2e");
    expect(block.getQuestion("tests")?.value).toEqual(["unit", "e2e"]);
    await block.submit();
    expect(sent).toEqual([{ seats: ["4"], tests: ["unit", "e2e"] }]);
    expect(block.getSnapshot().settled?.answers.find((a) => a.questionId === "scope")?.defaulted).toBe(true);
  });

  it("notifies only the edited question's subscribers", () => {
    const block = createElicitation({ id: "intake-1", request });
    const calls: string[] = [];
    for (const question of request.questions) {
      block.subscribeQuestion(question.id, () => calls.push(question.id));
    }
    block.setValue("seats", "5");
    block.setValue("seats", "6");
    expect(calls).toEqual(["seats", "seats"]);
  });

  it("refuses an invalid value locally, places the issue on its question, and edits back to idle", async () => {
    let calls = 0;
    const block = createElicitation({
      id: "intake-1",
      request,
      onAnswer: async () => {
        calls++;
        return settleAnswers(request.questions);
      },
    });
    block.setValue("seats", "12");
    expect(block.getSnapshot().isValid).toBe(false);
    expect(block.getQuestion("seats")?.error).toBe("Enter a number from 1 to 9.");
    await block.submit();
    expect(calls).toBe(0);
    expect(block.getSnapshot().answer.status).toBe("rejected");
    block.setValue("seats", "3");
    expect(block.getSnapshot().answer.status).toBe("idle");
    expect(block.getQuestion("seats")?.error).toBeUndefined();
  });

  it("maps a server 400 onto the questions it names", async () => {
    const block = createElicitation({
      id: "intake-1",
      request,
      onAnswer: async () => {
        throw new ToolCallError({
          kind: "invalid",
          status: 400,
          error: "invalid answers",
          issues: [
            {
              questionId: "scope",
              rule: "option",
              message: 'answers["scope"] must be one of "file", "module"',
            },
          ],
        });
      },
    });
    block.setValue("scope", "file");
    await block.submit();
    const snapshot = block.getSnapshot();
    expect(snapshot.answer).toMatchObject({ status: "rejected", error: "invalid answers" });
    expect(block.getQuestion("scope")?.error).toBe("Choose one of the options.");
    expect(block.getQuestion("scope")?.issues[0]?.message).toBe(
      'answers["scope"] must be one of "file", "module"',
    );
    expect(block.getQuestion("seats")?.error).toBeUndefined();
  });

  it("fails on a network error and retries the same answers", async () => {
    let attempt = 0;
    const sent: unknown[] = [];
    const block = createElicitation({
      id: "intake-1",
      request,
      onAnswer: async (answers) => {
        sent.push(answers);
        attempt++;
        if (attempt === 1) throw new TypeError("fetch failed");
        return settleAnswers(request.questions, answers);
      },
    });
    block.setValue("scope", "file");
    await block.submit();
    expect(block.getSnapshot().answer).toMatchObject({ status: "failed", error: "fetch failed" });
    await block.retry();
    expect(sent).toEqual([{ scope: ["file"] }, { scope: ["file"] }]);
    expect(block.getSnapshot().phase).toBe("settled");
  });

  it("settles a 409 with the stored outcome and marks the conflict", async () => {
    const stored = settleSkipped(request.questions);
    const block = createElicitation({
      id: "intake-1",
      request,
      onAnswer: async () => {
        throw new ToolCallError({
          kind: "conflict",
          status: 409,
          error: "already settled",
          toolCallId: "intake-1",
          toolStatus: "completed",
          output: stored,
        });
      },
    });
    await block.submit();
    expect(block.getSnapshot().answer).toEqual({ status: "settled", outcome: stored, conflict: true });
    expect(block.getSnapshot().settled?.skipped).toBe(true);
  });

  it("skips, and a failed skip retries", async () => {
    let attempt = 0;
    const block = createElicitation({
      id: "intake-1",
      request,
      onSkip: async () => {
        attempt++;
        if (attempt === 1) throw new Error("offline");
        return settleSkipped(request.questions);
      },
    });
    await block.skip();
    expect(block.getSnapshot().skip).toEqual({ status: "failed", error: "offline" });
    await block.retry();
    expect(block.getSnapshot().skip.status).toBe("settled");
    expect(block.getSnapshot().settled?.skipped).toBe(true);
  });

  it("says which questions a skip leaves to the agent: those with nothing pre-picked", async () => {
    // Every question pre-picked: a skip lets the agent's picks stand.
    expect(createElicitation({ id: "intake-2", request }).getSnapshot().leftToAgent).toEqual([]);
    // The booking set: seats has a pick; "Who should we email?" (required) and the notes have none.
    const booking: ElicitationRequest = { source: "intake", questions: bookingIntake.questions };
    const block = createElicitation({ id: "intake-3", request: booking });
    expect(block.getSnapshot().leftToAgent).toEqual(["contact", "notes"]);
    // What the skip settles is what was said: the pick stands, the agent decides the rest.
    await block.skip();
    const settled = block.getSnapshot().settled;
    expect(settled?.skipped).toBe(true);
    expect(settled?.answers.map((answer) => [answer.questionId, answer.kind])).toEqual([
      ["seats", "pre-picked"],
      ["contact", "left-to-agent"],
      ["notes", "left-to-agent"],
    ]);
    expect(block.getSnapshot().leftToAgent).toEqual(["contact", "notes"]);
  });

  it("can start in any state: submitting, rejected, settled, dismissed", async () => {
    const onAnswer = vi.fn(async () => settleAnswers(request.questions));
    const submitting = createElicitation({
      id: "a",
      request,
      answer: { status: "submitting", answers: {} },
      onAnswer,
    });
    expect(submitting.getSnapshot().busy).toBe(true);
    // Starting there shows the answer under way; it does not send it again.
    await Promise.resolve();
    expect(onAnswer).not.toHaveBeenCalled();
    expect(submitting.getSnapshot().answer.status).toBe("submitting");
    submitting.setValue("seats", "3");
    expect(submitting.getQuestion("seats")?.touched).toBe(false);

    const issue = {
      questionId: "seats",
      rule: "max" as const,
      message: 'answers["seats"] must be at most 9',
    };
    const rejected = createElicitation({
      id: "b",
      request,
      values: { seats: ["12"] },
      answer: { status: "rejected", error: "invalid answers", issues: [issue] },
    });
    expect(rejected.getQuestion("seats")?.error).toBe("Enter a number from 1 to 9.");
    expect(rejected.getQuestion("seats")?.issues).toEqual([issue]);

    const settled = createElicitation({ id: "c", request, outcome: settleAnswers(request.questions) });
    expect(settled.getSnapshot().phase).toBe("settled");
    expect(settled.getSnapshot().answer.status).toBe("settled");

    const dismissed = createElicitation({ id: "d", request, dismissed: true });
    expect(dismissed.getSnapshot().phase).toBe("dismissed");
  });

  it("moves the one-at-a-time cursor within the questions", () => {
    const block = createElicitation({ id: "intake-1", request });
    block.setIndex(2);
    expect(block.getSnapshot().index).toBe(2);
    block.setIndex(7);
    expect(block.getSnapshot().index).toBe(2);
    block.setIndex(-1);
    expect(block.getSnapshot().index).toBe(0);
  });

  it("settles from outside while pending", () => {
    const block = createElicitation({ id: "intake-1", request });
    block.settle(settleSkipped(request.questions));
    expect(block.getSnapshot().phase).toBe("settled");
    expect(block.getSnapshot().skip.status).toBe("settled");
  });
});

describe("a question with a pattern, before the pattern engine is loaded", () => {
  const branchRequest: ElicitationRequest = {
    source: "ask",
    questions: [
      {
        id: "branch",
        prompt: "What should the branch be called?",
        input: { type: "text", pattern: "[a-z]+(-[a-z]+)*" },
        defaults: ["fix-login"],
      },
      { id: "seats", prompt: "How many seats?", input: { type: "number", max: 9 } },
    ],
  };

  /** createElicitation and the core as a page has them before anything asked for the engine. */
  async function freshModules() {
    vi.resetModules();
    const pattern = await import("@/lib/prepick/core/pattern");
    const { createElicitation: create } = await import("./create-elicitation");
    expect(pattern.patternEngineReady()).toBe(false);
    return { pattern, create };
  }

  it("is not yet valid and shows no error; once the engine loads it is checked and subscribers hear", async () => {
    const { pattern, create } = await freshModules();
    const block = create({ id: "ask-1", request: branchRequest });
    block.setValue("branch", "Not A Branch");
    block.setValue("seats", "12");
    let snapshot = block.getSnapshot();
    expect(snapshot.isValid).toBe(false);
    expect(snapshot.questions[0]?.error).toBeUndefined();
    // The questions without a pattern are checked as ever.
    expect(snapshot.questions[1]?.error).toBe("Enter a number of at most 9.");

    await new Promise<void>((resolve) => block.subscribeQuestion("branch", resolve));
    expect(pattern.patternEngineReady()).toBe(true);
    snapshot = block.getSnapshot();
    expect(snapshot.questions[0]?.error).toBe("Enter it in the form the question asks for.");
    expect(snapshot.questions[0]?.issues[0]?.rule).toBe("pattern");

    block.setValue("branch", "fix-login");
    block.setValue("seats", "2");
    expect(block.getSnapshot().isValid).toBe(true);
  });

  it("a confirm made before the engine arrives waits for it, then refuses what the pattern refuses", async () => {
    const { create } = await freshModules();
    const block = create({ id: "ask-1", request: branchRequest });
    block.setValue("branch", "Not A Branch");
    await block.submit();
    const { answer } = block.getSnapshot();
    expect(answer.status).toBe("rejected");
    expect(answer.status === "rejected" && answer.issues.map((issue) => issue.rule)).toEqual(["pattern"]);
  });

  it("a skip made before the engine arrives settles with the defaults its pattern accepts", async () => {
    const { create } = await freshModules();
    const block = create({ id: "ask-1", request: branchRequest });
    await block.skip();
    expect(block.getSnapshot().settled?.outcome.answers).toEqual({ branch: ["fix-login"], seats: [] });
  });

  it("a next made before the engine arrives waits for it, then moves on", async () => {
    const { create } = await freshModules();
    const block = create({ id: "ask-1", request: branchRequest });
    const moved = block.next();
    expect(block.getSnapshot().state).toMatchObject({ attempt: { type: "next", status: "checking" } });
    await moved;
    expect(block.getSnapshot().index).toBe(1);
  });

  it("when the engine does not load, says so, and a retry loads it and goes on", async () => {
    vi.resetModules();
    let offline = true;
    vi.doMock("@/lib/prepick/core/pattern", async (importOriginal) => {
      const real = await importOriginal<typeof import("@/lib/prepick/core/pattern")>();
      return {
        ...real,
        loadPatternEngine: async () => {
          if (offline) throw new TypeError("Failed to fetch dynamically imported module");
          await real.loadPatternEngine();
        },
      };
    });
    try {
      const { create } = await freshModules();
      const block = create({ id: "ask-1", request: branchRequest });
      block.setValue("branch", "fix-logout");
      await block.submit();
      let snapshot = block.getSnapshot();
      expect(snapshot.state).toMatchObject({
        patterns: "failed",
        attempt: { type: "answer", status: "failed" },
      });
      expect(snapshot.error).toBe(
        "These answers cannot be checked right now. Check your connection, then retry.",
      );
      expect(snapshot.canRetry).toBe(true);
      expect(snapshot.isValid).toBe(false);

      offline = false;
      await block.retry();
      snapshot = block.getSnapshot();
      expect(snapshot.phase).toBe("settled");
      expect(snapshot.settled?.outcome.answers.branch).toEqual(["fix-logout"]);
    } finally {
      vi.doUnmock("@/lib/prepick/core/pattern");
      vi.resetModules();
    }
  });
});

describe("the whole form's own line", () => {
  it("says a failed send in a person's words and keeps the technical error for the app", async () => {
    const block = createElicitation({
      id: "intake-1",
      request,
      onAnswer: async () => {
        throw new TypeError("Failed to fetch");
      },
    });
    await block.submit();
    const snapshot = block.getSnapshot();
    expect(snapshot.error).toBe("Your answers were not sent. Check your connection, then retry.");
    expect(snapshot.answer).toMatchObject({ status: "failed", error: "Failed to fetch" });
    expect(snapshot.canRetry).toBe(true);
  });

  it("says a refusal no question can show, without the API's strings", async () => {
    const block = createElicitation({
      id: "intake-1",
      request,
      onAnswer: async () => {
        throw new ToolCallError({
          kind: "invalid",
          status: 400,
          error: "invalid answers",
          issues: [
            {
              questionId: "gone",
              rule: "unknown-question",
              message: 'answers["gone"] is not one of this set\'s questions',
            },
          ],
        });
      },
    });
    await block.submit();
    const { error, canRetry } = block.getSnapshot();
    expect(error).toBe(
      "These answers were not accepted. An answer was sent to a question this set does not have.",
    );
    expect(canRetry).toBe(false);
  });
});
