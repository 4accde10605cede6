import { generateText } from "ai";
import { intakeRequest, parseAskInput } from "prepick/core";
import { describe, expect, test } from "vitest";
import { createScriptedModel } from "../model/scripted-model";
import { checkAgents } from "./check-agents";
import { DEMO_AGENTS, demoToolCalls } from "./demo-agents";
import { modelToolsOf } from "./model-tools";
import { requiresApproval } from "./requires-approval";
import type { AgentDefinition } from "./types";

const agents = checkAgents(DEMO_AGENTS);
const byName = (name: string): AgentDefinition => {
  const agent = agents.find((candidate) => candidate.name === name);
  if (!agent) throw new Error(`no demo agent named ${name}`);
  return agent;
};
const context = {
  runId: "r1",
  threadId: "t1",
  actorId: "a1",
  toolCallId: "c1",
  idempotencyKey: "r1:c1",
  abortSignal: new AbortController().signal,
};

describe("demo agents", () => {
  test("are valid, uniquely named, and include the spec's agents", () => {
    expect(agents.map((agent) => agent.name)).toEqual(["refactorer", "booking", "planner", "operator"]);
  });

  test("refactorer asks the spec's questions, three of them, as its preamble says", () => {
    const request = intakeRequest(byName("refactorer").intake ?? { questions: [], when: "thread-start" });
    expect(request.preamble).toBe(
      "Three questions before I start. I have pre-picked what I would choose, so confirming is enough.",
    );
    expect(request.questions.map((question) => question.id)).toEqual(["scope", "tests", "api"]);
    // The three options the spec's picture shows; the hotkeys its example gives.
    expect(request.questions[0]).toMatchObject({ id: "scope", defaults: ["module"] });
    expect(request.questions[0]?.options?.map((option) => [option.label, option.hotkey])).toEqual([
      ["This file", "a"],
      ["The whole module", "b"],
      ["Everything that imports it", "c"],
    ]);
    expect(request.questions[1]).toMatchObject({ multiple: true, defaults: ["unit"] });
    expect(request.questions[2]).toMatchObject({
      prompt: "May I change the public API?",
      defaults: ["keep"],
    });
  });

  test("booking asks the spec's typed questions", () => {
    const questions = byName("booking").intake?.questions ?? [];
    expect(questions.map((question) => [question.id, question.input?.type])).toEqual([
      ["seats", "number"],
      ["contact", "email"],
      ["notes", "textarea"],
    ]);
    expect(questions[0]).toMatchObject({
      input: { min: 1, max: 9, step: 1, required: true },
      defaults: ["2"],
    });
  });

  test("planner has no intake and is offered ask; its model asks when the request is ambiguous", async () => {
    const planner = byName("planner");
    expect(planner.intake).toBeUndefined();
    expect(planner.ask).toBe(true);
    const result = await generateText({
      model: createScriptedModel(),
      system: planner.systemPrompt,
      prompt: "Plan the migration",
      tools: modelToolsOf(planner),
    });
    expect(result.toolCalls.map((call) => call.toolName)).toEqual(["ask"]);
    expect(parseAskInput(result.toolCalls[0]?.input).success).toBe(true);
    // The ask schema is not enforced on the way out, so a malformed call reaches the loop, which
    // answers it with the issues (parseAskInput) instead of the SDK dropping it as invalid.
    const malformed = await generateText({
      model: createScriptedModel(),
      prompt: "Plan something malformed",
      tools: modelToolsOf(planner),
    });
    expect(malformed.toolCalls.map((call) => [call.toolName, call.invalid ?? false])).toEqual([
      ["ask", false],
    ]);
    expect(parseAskInput(malformed.toolCalls[0]?.input).success).toBe(false);
  });

  test("operator: purge_cache needs approval, read_status does not, and a policy can override", async () => {
    const operator = byName("operator");
    const [purge, status] = operator.tools;
    if (!purge || !status) throw new Error("operator lost its tools");
    expect(purge.sideEffects).toBe(true);
    const verdict = (tool: typeof purge, policy?: Parameters<typeof requiresApproval>[0]["policy"]) =>
      requiresApproval({ agent: operator, tool, input: {}, actorId: "a1", ...(policy ? { policy } : {}) });
    expect(await verdict(purge)).toBe(true);
    expect(await verdict(status)).toBe(false);
    const seen: unknown[] = [];
    const everything = async (call: Parameters<NonNullable<Parameters<typeof verdict>[1]>>[0]) => {
      seen.push(call);
      return true;
    };
    expect(await verdict(status, everything)).toBe(true);
    expect(seen).toEqual([
      { agent: "operator", toolName: "read_status", input: {}, actorId: "a1", needsApproval: false },
    ]);
  });

  test("operator's model calls the tool a request names, with input valid for its schema", async () => {
    const operator = byName("operator");
    const result = await generateText({
      model: createScriptedModel(),
      prompt: "Please flush the images cache",
      tools: modelToolsOf(operator),
    });
    expect(result.toolCalls.map((call) => [call.toolName, call.input])).toEqual([
      ["purge_cache", { cache: "images", hours: 24 }],
    ]);
    const purge = operator.tools.find((tool) => tool.name === "purge_cache");
    const before = demoToolCalls("purge_cache");
    const input = purge?.inputSchema.parse(result.toolCalls[0]?.input);
    expect(await purge?.execute(input, context)).toEqual({ purged: "images", hours: 24 });
    expect(demoToolCalls("purge_cache")).toBe(before + 1);
  });

  test("operator: a person approving purge_cache may change which cache and how far back", () => {
    const fields = byName("operator").editing.get("purge_cache") ?? [];
    expect(
      fields.map(({ question }) => [question.id, question.prompt, question.options?.map((o) => o.label)]),
    ).toEqual([
      ["cache", "Which cache should I purge?", ["Pages", "Images", "Every cache"]],
      ["hours", "How far back, in hours?", undefined],
    ]);
    expect(fields[1]?.question.input).toEqual({ type: "number", min: 1, max: 168, step: 1 });
  });
});
