import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { CanUseTool, PermissionResult } from "@anthropic-ai/claude-agent-sdk";
import type { AskUserQuestionInput } from "@anthropic-ai/claude-agent-sdk/sdk-tools";
import { describe, expect, expectTypeOf, it } from "vitest";
import type { ElicitationBlock } from "@/hooks/transcript-types";
import {
  CLAUDE_DISMISSED_MESSAGE,
  type ClaudeAskUserQuestionInput,
  type ClaudePermissionResult,
  claudeAnswersToOutcome,
  claudeQuestionsToRequest,
  type outcomeToClaudePermissionResult,
} from "@/lib/prepick/transport/adapters/claude-ask-user-question";
import { askThroughPrepick } from "./claude-can-use-tool.fixture";

const input: AskUserQuestionInput = {
  questions: [
    {
      question: "Which library should we use for dates?",
      header: "Library",
      multiSelect: false,
      options: [
        { label: "date-fns", description: "Small, functional" },
        { label: "Temporal (Recommended)", description: "The platform's own", preview: "Temporal.Now…" },
      ],
    },
    {
      question: "Which checks should run?",
      header: "Checks",
      multiSelect: true,
      options: [
        { label: "Lint", description: "" },
        { label: "Types, strict", description: "A label with a comma" },
        { label: "Unit", description: "" },
      ],
    },
    {
      question: "Where should it deploy?",
      header: "Target",
      multiSelect: false,
      options: [
        { label: "Staging", description: "EU" },
        { label: "Staging", description: "US" },
      ],
    },
  ],
};

const toolOptions = (signal = new AbortController().signal) => ({
  signal,
  toolUseID: "toolu_1",
  requestId: "req_1",
});
const refuseOthers: CanUseTool = async (toolName) => ({
  behavior: "deny",
  message: `${toolName} is not allowed`,
});

/** Runs the recipe's canUseTool with a person acting on the block it shows. */
function ask(person: (block: ElicitationBlock) => void, signal?: AbortSignal) {
  // canUseTool receives the input as a plain record, as the CLI sends it.
  const received: Record<string, unknown> = { ...input };
  return askThroughPrepick(person, refuseOthers)("AskUserQuestion", received, toolOptions(signal));
}

describe("AskUserQuestion against @anthropic-ai/claude-agent-sdk's own types", () => {
  it("takes the SDK's AskUserQuestionInput and returns its PermissionResult with an AskUserQuestionInput", () => {
    expectTypeOf<AskUserQuestionInput>().toExtend<ClaudeAskUserQuestionInput>();
    expectTypeOf<ReturnType<typeof outcomeToClaudePermissionResult>>().toExtend<PermissionResult>();
    expectTypeOf<
      Extract<ClaudePermissionResult, { behavior: "allow" }>["updatedInput"]["answers"]
    >().toExtend<NonNullable<AskUserQuestionInput["answers"]>>();
    expectTypeOf(askThroughPrepick).returns.toEqualTypeOf<CanUseTool>();
  });

  it("reads each question by its text and options by label, Other as free text, the recommended option pre-picked", () => {
    const parsed = claudeQuestionsToRequest(input);
    if (!parsed.success) throw new Error(parsed.issues.map((issue) => issue.message).join("\n"));
    const [library, checks, target] = parsed.request.questions;
    expect(library).toMatchObject({
      id: "q1",
      prompt: "Which library should we use for dates?",
      allowFreeText: true,
      defaults: ["Temporal (Recommended)"],
    });
    expect(library?.options?.map((option) => [option.label, option.description])).toEqual([
      ["date-fns", "Small, functional"],
      ["Temporal (Recommended)", "The platform's own"],
    ]);
    expect(checks).toMatchObject({ multiple: true, allowFreeText: true, defaults: ["Lint"] });
    expect(target?.options?.map((option) => option.value)).toEqual(["Staging", "Staging #2"]);
  });

  it("refuses, naming the field, an input that is not AskUserQuestion's shape", () => {
    const parsed = claudeQuestionsToRequest({ questions: [{ question: 3, options: [{}] }] });
    expect(parsed.success ? [] : parsed.issues.map((issue) => issue.message)).toEqual([
      "questions[0].question must be a string",
      "questions[0].options[0].label must be a string",
    ]);
  });
});

describe("the canUseTool recipe in docs/adapters.md", () => {
  it("is the page's code, word for word", () => {
    // Tests run from the repository's root.
    const page = readFileSync(join(process.cwd(), "docs", "adapters.md"), "utf8");
    const block = /<!-- claude-can-use-tool -->\s*```ts\n([\s\S]*?)```/.exec(page)?.[1];
    const recipe = readFileSync(
      join(process.cwd(), "tests", "adapters", "claude-can-use-tool.fixture.ts"),
      "utf8",
    );
    expect(block).toBe(recipe);
  });

  it("confirming allows the tool with answers keyed by question text, labels as Claude reads them", async () => {
    const result = await ask((block) => void block.submit());
    expect(result).toEqual({
      behavior: "allow",
      updatedInput: {
        ...input,
        answers: {
          "Which library should we use for dates?": "Temporal (Recommended)",
          "Which checks should run?": "Lint",
          "Where should it deploy?": "Staging",
        },
      },
    });
  });

  it("sends several picks joined by ', ', typed text for Other, and a repeated label as the label", async () => {
    const result = await ask((block) => {
      block.setValue("q1", "Luxon, pinned");
      block.setValue("q2", ["Types, strict", "Unit", "e2e"]);
      block.setValue("q3", "Staging #2");
      void block.submit();
    });
    if (result?.behavior !== "allow") throw new Error("expected allow");
    const answers = {
      "Which library should we use for dates?": "Luxon, pinned",
      "Which checks should run?": "Types, strict, Unit, e2e",
      "Where should it deploy?": "Staging",
    };
    expect(result.updatedInput?.answers).toEqual(answers);
    // Read back, a label holding ", " stays whole and the rest splits.
    const parsed = claudeQuestionsToRequest(input);
    if (!parsed.success) throw new Error("expected questions");
    expect(claudeAnswersToOutcome(input, parsed.request, answers).answers).toEqual({
      q1: ["Luxon, pinned"],
      q2: ["Types, strict", "Unit", "e2e"],
      q3: ["Staging"],
    });
  });

  it("a skip denies with the summary, which leaves the choices to Claude and names its pre-picks", async () => {
    const result = await ask((block) => void block.skip());
    expect(result).toEqual({
      behavior: "deny",
      message: [
        "The user skipped the questions and left the choices to you. Your pre-picked answers stand:",
        "Which library should we use for dates? → Temporal (Recommended)",
        "Which checks should run? → Lint",
        "Where should it deploy? → Staging",
      ].join("\n"),
    });
  });

  it("stopping the query dismisses the block and denies; other tools go to your own check", async () => {
    const stop = new AbortController();
    let shown: ElicitationBlock | undefined;
    const pending = ask((block) => {
      shown = block;
    }, stop.signal);
    stop.abort();
    expect(await pending).toEqual({ behavior: "deny", message: CLAUDE_DISMISSED_MESSAGE });
    expect(shown?.getSnapshot().phase).toBe("dismissed");
    const other = await askThroughPrepick(() => undefined, refuseOthers)(
      "Bash",
      { command: "ls" },
      toolOptions(),
    );
    expect(other).toEqual({ behavior: "deny", message: "Bash is not allowed" });
  });

  it("a malformed input is denied with the issues, and no block is shown", async () => {
    let shown = false;
    const result = await askThroughPrepick(() => {
      shown = true;
    }, refuseOthers)("AskUserQuestion", { questions: "which?" }, toolOptions());
    expect(result).toEqual({ behavior: "deny", message: "questions must be an array of questions" });
    expect(shown).toBe(false);
  });
});
