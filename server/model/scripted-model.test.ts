import type {
  LanguageModelV4CallOptions,
  LanguageModelV4Message,
  LanguageModelV4Prompt,
} from "@ai-sdk/provider";
import { jsonSchema, stepCountIs, streamText, tool } from "ai";
import {
  askToolJsonSchema,
  checkIntake,
  describeAskIssues,
  parseAskInput,
  picksFromOptions,
  settleAnswers,
  settleSkipped,
} from "prepick/core";
import { describe, expect, test } from "vitest";
import { z } from "zod";
import { scopeQuestion } from "../../src/core/spec-examples";
import { answerPrompt, createScriptedModel, hashText, splitDeltas } from "./scripted-model";
import { SCRIPTED_RULES } from "./scripted-rules";

const askTool = {
  type: "function" as const,
  name: "ask",
  description: "Ask the user.",
  inputSchema: askToolJsonSchema as Record<string, unknown>,
};
const statusTool = {
  type: "function" as const,
  name: "read_status",
  description: "Reads a service's status.",
  inputSchema: z.toJSONSchema(z.object({ service: z.enum(["api", "web"]) })) as Record<string, unknown>,
};

const user = (text: string): LanguageModelV4Message => ({ role: "user", content: [{ type: "text", text }] });
const call = (toolCallId: string, toolName: string, input: unknown): LanguageModelV4Message => ({
  role: "assistant",
  content: [{ type: "tool-call", toolCallId, toolName, input }],
});
const result = (
  toolCallId: string,
  toolName: string,
  output: Extract<LanguageModelV4Message, { role: "tool" }>["content"][number] extends infer P
    ? P extends { type: "tool-result"; output: infer O }
      ? O
      : never
    : never,
): LanguageModelV4Message => ({
  role: "tool",
  content: [{ type: "tool-result", toolCallId, toolName, output }],
});

function options(prompt: LanguageModelV4Prompt, tools = [askTool, statusTool]): LanguageModelV4CallOptions {
  return { prompt, tools };
}

function onlyCall(prompt: LanguageModelV4Prompt, tools = [askTool, statusTool]) {
  const turn = answerPrompt(options(prompt, tools));
  const [first, ...rest] = turn.content;
  expect(rest).toEqual([]);
  if (first?.type !== "tool-call")
    throw new Error(`expected a tool call, got ${JSON.stringify(turn.content)}`);
  return { ...first, parsed: JSON.parse(first.input) as unknown, rule: turn.rule };
}

function onlyText(prompt: LanguageModelV4Prompt, tools = [askTool, statusTool]) {
  const turn = answerPrompt(options(prompt, tools));
  const [first] = turn.content;
  if (first?.type !== "text") throw new Error(`expected text, got ${JSON.stringify(turn.content)}`);
  return { text: first.text, rule: turn.rule };
}

const refactorIntake = checkIntake({ questions: [scopeQuestion] });

describe("scripted model through the AI SDK", () => {
  test("streams a plain reply in several deltas, with usage", async () => {
    const run = () => streamText({ model: createScriptedModel(), prompt: "Say hello to the team" });
    const first = run();
    const deltas: string[] = [];
    for await (const delta of first.textStream) deltas.push(delta);
    expect(deltas.length).toBeGreaterThan(1);
    expect(deltas.join("")).toContain("Say hello to the team");
    const usage = await first.usage;
    expect(usage.inputTokens).toBeGreaterThan(0);
    expect(usage.outputTokens).toBeGreaterThan(0);
    expect(await run().text).toBe(deltas.join(""));
  });

  test("calls a registered tool it is asked about, then reports the result", async () => {
    const seen: unknown[] = [];
    const stream = streamText({
      model: createScriptedModel(),
      prompt: "Please read_status for the web tier",
      tools: {
        read_status: tool({
          description: "Reads a service's status.",
          inputSchema: z.object({ service: z.enum(["api", "web"]) }),
          execute: async (input) => {
            seen.push(input);
            return { healthy: true, service: input.service };
          },
        }),
      },
      stopWhen: stepCountIs(3),
    });
    const text = await stream.text;
    const steps = await stream.steps;
    expect(seen).toEqual([{ service: "web" }]);
    expect(steps[0]?.toolCalls.map((c) => c.toolName)).toEqual(["read_status"]);
    expect(steps[0]?.toolCalls[0]?.toolCallId).toMatch(/^call-0-0-[0-9a-f]{8}$/);
    expect(text).toContain('read_status returned {"healthy":true,"service":"web"}');
  });

  test("calls ask with well-formed questions when a request is ambiguous and ask is offered", async () => {
    const stream = streamText({
      model: createScriptedModel(),
      prompt: "Refactor the parser",
      tools: {
        ask: tool({ description: "Ask the user.", inputSchema: jsonSchema(askToolJsonSchema as never) }),
      },
    });
    const calls = await stream.toolCalls;
    expect(calls.map((c) => c.toolName)).toEqual(["ask"]);
    const parsed = parseAskInput(calls[0]?.input);
    if (!parsed.success) throw new Error(parsed.issues.map((i) => i.message).join("; "));
    expect(parsed.request.preamble).toMatch(/^Two questions before I start/);
    for (const question of parsed.request.questions) {
      if (picksFromOptions(question)) expect(question.defaults?.length).toBeGreaterThan(0);
    }
    // Hotkeys are the loop's to assign; the model leaves them out.
    expect(JSON.stringify(calls[0]?.input)).not.toContain("hotkey");
  });
});

describe("rule table", () => {
  test("every rule is reachable from some prompt", () => {
    const reached = new Set<string>();
    const malformed = onlyCall([user("a malformed request please")]);
    const outcome = settleAnswers(refactorIntake.success ? refactorIntake.intake.questions : [], {
      scope: ["file"],
    });
    const prompts: LanguageModelV4CallOptions[] = [
      { prompt: [user("x")], tools: [statusTool], toolChoice: { type: "tool", toolName: "read_status" } },
      options([
        user("a malformed request please"),
        call(malformed.toolCallId, "ask", malformed.parsed),
        result(malformed.toolCallId, "ask", { type: "error-text", value: "bad" }),
      ]),
      options([
        user("refactor it"),
        call("c1", "ask", {}),
        result("c1", "ask", { type: "json", value: outcome }),
      ]),
      options([
        user("refactor it, then read_status"),
        call("c1", "ask", {}),
        result("c1", "ask", { type: "json", value: outcome }),
      ]),
      options([
        user("refactor it"),
        call("c1", "ask", {}),
        result("c1", "ask", { type: "error-text", value: "bad" }),
        call("c2", "ask", {}),
        result("c2", "ask", { type: "error-text", value: "bad again" }),
      ]),
      options([
        user("read_status"),
        call("c1", "read_status", {}),
        result("c1", "read_status", { type: "json", value: 1 }),
      ]),
      options([user("read_status now")]),
      options([user("a malformed request please")]),
      options([user("Plan my week")]),
      options([user("Hello")]),
    ];
    for (const prompt of prompts) reached.add(answerPrompt(prompt).rule);
    expect([...reached].sort()).toEqual(SCRIPTED_RULES.map((rule) => rule.name).sort());
  });

  test("a request naming `malformed` asks without defaults, then retries well-formed after the failure", () => {
    const first = onlyCall([user("Give me a malformed question")]);
    expect(first.toolName).toBe("ask");
    const refused = parseAskInput(first.parsed);
    expect(refused.success).toBe(false);
    if (refused.success) return;
    expect(refused.issues[0]?.message).toContain("defaults must pre-pick at least one option");
    const retry = onlyCall([
      user("Give me a malformed question"),
      call(first.toolCallId, "ask", first.parsed),
      result(first.toolCallId, "ask", { type: "error-text", value: describeAskIssues(refused.issues) }),
    ]);
    expect(retry.toolName).toBe("ask");
    expect(retry.rule).toBe("ask-retry");
    expect(parseAskInput(retry.parsed).success).toBe(true);
    expect(retry.toolCallId).not.toBe(first.toolCallId);
  });

  test("after an answered ask, lists the person's choices and says what it will do, in a person's words", () => {
    if (!refactorIntake.success) throw new Error("intake fixture is invalid");
    const outcome = settleAnswers(refactorIntake.intake.questions, { scope: ["file"] });
    // An agent with an intake and no `ask` of its model's own.
    const { text } = onlyText(
      [
        user("Refactor the parser"),
        call("intake-run1", "ask", {}),
        result("intake-run1", "ask", { type: "json", value: outcome }),
      ],
      [statusTool],
    );
    expect(text).toContain(
      'Thanks, that settles it. I will now work on "Refactor the parser" with your choices:',
    );
    expect(text).toContain("- How much should I cover? **This file**");
    // The summary's heading and arrows are written for the model, not for the person.
    expect(text).not.toContain("The user answered");
    expect(text).not.toContain("→");
    expect(text).not.toMatch(/; ;|;\s*$/m);
  });

  test("quotes a long request cut between characters, never inside an emoji", () => {
    for (let pad = 74; pad <= 80; pad++) {
      const request = `${"x".repeat(pad)}😀👨‍👩‍👧😀 and the rest`;
      const { text } = onlyText([user(request)], [statusTool]);
      const quoted = /"(.*)"/u.exec(text)?.[1] ?? "";
      expect(text.isWellFormed(), quoted).toBe(true);
      expect(quoted.endsWith("…")).toBe(true);
      expect([...quoted].length).toBeLessThanOrEqual(80);
      expect(request.startsWith(quoted.slice(0, -1))).toBe(true);
      // The cut falls before or after the family, never inside it.
      expect(/👨(?!‍👩‍👧)/u.test(quoted)).toBe(false);
    }
  });

  test("a skipped ask says the agent goes with its own picks, without the sentence written for the model", () => {
    if (!refactorIntake.success) throw new Error("intake fixture is invalid");
    const outcome = settleSkipped(refactorIntake.intake.questions);
    const { text } = onlyText([
      user("Refactor the parser"),
      call("c1", "ask", {}),
      result("c1", "ask", { type: "json", value: outcome }),
    ]);
    expect(text).toContain(
      'You left the choices to me, so I will work on "Refactor the parser" with my own picks:',
    );
    expect(text).toContain("- How much should I cover? **The whole module**");
    expect(text).not.toContain("left the choices to you");
    expect(text).not.toContain("pre-picked answers stand");
  });

  test("multi-line and empty answers read as one list item each", () => {
    const summary = "The user answered:\nNotes? → first line\n    second line\nEmail? → (no answer)";
    const { text } = onlyText([{ role: "system", content: `You help.\n\n${summary}` }, user("Go ahead")]);
    expect(text).toContain("- Notes? **first line second line**");
    expect(text).toContain("- Email? **no answer**");
  });

  test("asks once of its own in a turn, after an intake too, and never when ask is not offered", () => {
    expect(onlyText([user("Refactor the parser")], [statusTool]).rule).toBe("reply");
    const afterIntake: LanguageModelV4Prompt = [
      user("Refactor the parser"),
      call("intake-r", "ask", {}),
      result("intake-r", "ask", { type: "text", value: "x" }),
    ];
    // The intake holds the agent's questions; the model still has its own.
    expect(onlyCall(afterIntake, [askTool]).rule).toBe("ask-ambiguous");
    const asked = onlyText(
      [...afterIntake, call("c1", "ask", {}), result("c1", "ask", { type: "text", value: "y" })],
      [askTool],
    );
    expect(asked.rule).toBe("ask-answered");
  });

  test("once the questions are answered, starts the work with the tools the request names", () => {
    const answered: LanguageModelV4Prompt = [
      user("Please read status of the api"),
      call("intake-r", "ask", {}),
      result("intake-r", "ask", { type: "text", value: "The user answered:\nHow much? → This file" }),
    ];
    const started = onlyCall(answered);
    expect(started).toMatchObject({ rule: "ask-answered-call-tool", toolName: "read_status" });
    expect(started.parsed).toEqual({ service: "api" });
    const done = onlyText([
      ...answered,
      call("c2", "read_status", { service: "api" }),
      result("c2", "read_status", { type: "json", value: { healthy: true } }),
    ]);
    expect(done.rule).toBe("tool-result");
  });

  test("a plain reply mentions intake answers found in the system prompt", () => {
    const { text } = onlyText([
      {
        role: "system",
        content: "You refactor.\n\nThe user answered:\nHow much should I cover? → This file",
      },
      user("Go ahead"),
    ]);
    expect(text).toContain("Going by your answers:\n\n- How much should I cover? **This file**");
  });

  test("reports a rejected call and a failed call", () => {
    const denied = onlyText([
      user("read_status"),
      call("c1", "read_status", {}),
      result("c1", "read_status", { type: "execution-denied", reason: "not today" }),
    ]);
    expect(denied.text).toBe("I did not run read_status: it was rejected (not today).");
    const failed = onlyText([
      user("read_status"),
      call("c1", "read_status", {}),
      result("c1", "read_status", { type: "error-text", value: "timeout" }),
    ]);
    expect(failed.text).toBe("read_status failed: timeout.");
  });

  test("a keyword the tool declares triggers it, and toolChoice none forbids calls", () => {
    const purge = {
      type: "function" as const,
      name: "purge_cache",
      description: "Purges a cache.",
      inputSchema: { type: "object" as const, properties: {} },
      providerOptions: { prepick: { keywords: ["flush"] } },
    };
    expect(onlyCall([user("Flush everything")], [purge]).toolName).toBe("purge_cache");
    expect(onlyCall([user("please purge cache")], [purge]).toolName).toBe("purge_cache");
    const none = answerPrompt({
      prompt: [user("Flush everything")],
      tools: [purge],
      toolChoice: { type: "none" },
    });
    expect(none.content[0]?.type).toBe("text");
  });

  test("is deterministic, and ids differ between prompts", () => {
    const a = answerPrompt(options([user("read_status please")]));
    const b = answerPrompt(options([user("read_status please")]));
    const c = answerPrompt(options([user("read_status please!")]));
    expect(a).toEqual(b);
    const id = (turn: typeof a) => (turn.content[0]?.type === "tool-call" ? turn.content[0].toolCallId : "");
    expect(id(a)).not.toBe(id(c));
    expect(hashText("abc")).toBe(hashText("abc"));
    expect(hashText("abc")).not.toBe(hashText("abd"));
  });

  test("doGenerate and doStream carry the same answer", async () => {
    const model = createScriptedModel();
    const prompt = options([user("Tell me about the release plan.")], [statusTool]);
    const generated = await model.doGenerate(prompt);
    const { stream } = await model.doStream(prompt);
    let streamed = "";
    const reader = stream.getReader();
    for (let i = 0; i < 100; i++) {
      const { done, value } = await reader.read();
      if (done) break;
      if (value.type === "text-delta") streamed += value.delta;
    }
    expect(generated.content).toEqual([{ type: "text", text: streamed }]);
    expect(generated.usage.outputTokens.total).toBeGreaterThan(0);
  });

  test("splits text into a few deltas that join back to it", () => {
    const text = "one two three four five six seven eight nine";
    const deltas = splitDeltas(text);
    expect(deltas.join("")).toBe(text);
    expect(deltas.length).toBeGreaterThan(1);
    expect(deltas.length).toBeLessThanOrEqual(4);
  });
});
