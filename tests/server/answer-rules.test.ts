// The rules of whole numbers, multiple-choice counts, dates and times, email and URL formats,
// schemes and pattern lengths, asked of the reference server and of the page's own store with
// the same values: both refuse the same values under the same rule, and accept the same.
import { type ElicitationFrame, type ElicitationOutcome, type Question, withHotkeys } from "prepick/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createElicitation } from "@/hooks/create-elicitation";
import type { PrepickServer } from "../../server/server";
import { call, chat, frameOf, startServer } from "../../server/testing/harness";

const questions: Question[] = [
  {
    id: "seats",
    prompt: "How many seats?",
    input: { type: "number", min: 1, max: 9, step: 1 },
    defaults: ["2"],
  },
  {
    id: "tests",
    prompt: "Which tests?",
    multiple: true,
    minItems: 1,
    maxItems: 2,
    options: [
      { value: "unit", label: "Unit" },
      { value: "e2e", label: "End to end" },
      { value: "bench", label: "Benchmarks" },
    ],
    defaults: ["unit"],
  },
  { id: "meeting", prompt: "When?", input: { type: "datetime", min: "2026-12-04T09:00" } },
  { id: "contact", prompt: "Who should we email?", input: { type: "email" } },
  { id: "site", prompt: "Which site?", input: { type: "url" } },
  { id: "reply", prompt: "Where to reply?", input: { type: "url", schemes: ["https", "mailto"] } },
  { id: "code", prompt: "Which code?", input: { type: "text", pattern: "[a-z]+" } },
];

/** [question, values, the rule both ends refuse them under (undefined: both accept)]. */
const CASES: [string, string[], string | undefined][] = [
  ["seats", ["2.5"], "step"],
  ["seats", ["3"], undefined],
  ["tests", ["unit", "e2e", "bench"], "max-items"],
  ["tests", [], "min-items"],
  ["tests", ["unit", "e2e"], undefined],
  ["meeting", ["tomorrow at 10"], "datetime"],
  ["meeting", ["2026-12-04T08:30"], "min"],
  ["meeting", ["2026-12-04T10:00"], undefined],
  ["contact", ["jürgen@example.com"], "email"],
  ["contact", ["a..b@example.com"], "email"],
  ["contact", ["ada@example.com"], undefined],
  ["site", ["https://例え.jp/パス"], "url"],
  ["site", ["javascript:alert(document.domain)"], "scheme"],
  ["site", ["https://xn--r8jz45g.jp/%E3%83%91%E3%82%B9"], undefined],
  ["reply", ["mailto:ada@example.com"], undefined],
  ["reply", ["http://example.com"], "scheme"],
  ["code", ["a".repeat(3000)], "pattern-length"],
  ["code", ["abc"], undefined],
];

let server: PrepickServer;
let toolCallId = "";
/** The questions as the server posted them, which the page asks. */
let posted: Question[] = [];

beforeAll(async () => {
  server = await startServer({
    agents: [{ name: "rules", systemPrompt: "You plan.", intake: { when: "every-turn", questions } }],
  });
  const run = await chat(server, "ada", "Plan it", { agent: "rules" });
  const asked = frameOf(run.frames, "elicitation") as ElicitationFrame | undefined;
  // The server keeps every new field of the question, so it can hold the answers to it.
  expect(asked?.request.questions).toEqual(questions.map(withHotkeys));
  posted = asked?.request.questions ?? [];
  toolCallId = asked?.id ?? "";
}, 60_000);

afterAll(async () => {
  await server.close();
}, 60_000);

/** The rules the page's own store refuses `values` for, on the question `id`. */
function pageRules(id: string, values: string[]): string[] {
  const block = createElicitation({ id: "page", request: { source: "intake", questions: posted } });
  block.setValue(id, values);
  return (block.getQuestion(id)?.issues ?? []).map((issue) => issue.rule);
}

describe("the new rules, on the server and in the page", { timeout: 60_000 }, () => {
  it.each(CASES)("%s = %o: both ends say %s", async (id, values, rule) => {
    const page = pageRules(id, values);
    if (rule === undefined) {
      expect(page).toEqual([]);
      // An accepted answer settles its set, so it goes to a run of its own.
      const run = await chat(server, "ada", "Plan it again", { agent: "rules" });
      const accepted = await call(server, "POST", "/agent/tool-call/answer", "ada", {
        toolCallId: `intake-${run.runId}`,
        answers: { [id]: values },
      });
      expect(accepted.status, JSON.stringify(accepted.body)).toBe(200);
      expect((accepted.body.output as ElicitationOutcome).answers[id]).toEqual(values);
      return;
    }
    const refused = await call(server, "POST", "/agent/tool-call/answer", "ada", {
      toolCallId,
      answers: { [id]: values },
    });
    expect(refused.status).toBe(400);
    const issues = refused.body.issues as { questionId: string; rule: string; message: string }[];
    expect(issues.map((issue) => [issue.questionId, issue.rule])).toEqual([[id, rule]]);
    expect(issues[0]?.message).toContain(`answers["${id}"]`);
    expect(page).toEqual([rule]);
  });
});
