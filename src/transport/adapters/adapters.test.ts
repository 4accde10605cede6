import { describe, expect, it } from "vitest";
import { validateAnswers } from "@/lib/prepick/core/answers";
import { settleAnswers, settleSkipped } from "@/lib/prepick/core/outcome";
import {
  mcpElicitationToRequest,
  mcpResultToOutcome,
  openCodeQuestionToRequest,
  openCodeReplyToOutcome,
  outcomeToMcpResult,
  outcomeToOpenCodeAnswer,
} from "./index";

describe("MCP form-mode elicitation", () => {
  const params = {
    message: "A few details before I book.",
    requestedSchema: {
      type: "object" as const,
      properties: {
        seats: { type: "integer" as const, title: "How many seats?", minimum: 1, maximum: 9, default: 2 },
        contact: { type: "string" as const, title: "Who should we email?", format: "email" },
        room: {
          type: "string" as const,
          title: "Which room?",
          oneOf: [
            { const: "main", title: "Main hall" },
            { const: "patio", title: "Patio" },
          ],
        },
        diets: {
          type: "array" as const,
          title: "Diets",
          items: { type: "string" as const, enum: ["vegan", "halal"] },
          default: ["vegan"],
        },
        outside: { type: "boolean" as const, title: "Outside?", default: false },
      },
      required: ["seats", "contact"],
    },
  };

  it("maps each property to a question with its rules and the server's defaults", () => {
    const parsed = mcpElicitationToRequest(params);
    expect(parsed.success).toBe(true);
    if (!parsed.success) return;
    const { request } = parsed;
    expect(request.preamble).toBe("A few details before I book.");
    const byId = Object.fromEntries(request.questions.map((question) => [question.id, question]));
    expect(byId.seats).toMatchObject({
      prompt: "How many seats?",
      input: { type: "number", min: 1, max: 9, step: 1, required: true },
      defaults: ["2"],
    });
    expect(byId.contact).toMatchObject({ input: { type: "email", required: true } });
    expect(byId.room?.options?.map((option) => option.label)).toEqual(["Main hall", "Patio"]);
    // The server pre-picked no room, so neither does Prepick: a select showing "Choose…".
    expect(byId.room).toMatchObject({ input: { type: "select" } });
    expect(byId.room?.defaults).toBeUndefined();
    expect(byId.diets).toMatchObject({ multiple: true, defaults: ["vegan"] });
    expect(byId.outside).toMatchObject({ input: { type: "boolean" }, defaults: ["false"] });
    expect(validateAnswers(request.questions, { seats: ["2.5"] }).map((issue) => issue.rule)).toContain(
      "step",
    );
  });

  it("maps answered, skipped and dismissed to accept, decline and cancel, and back", () => {
    const parsed = mcpElicitationToRequest(params);
    if (!parsed.success) throw new Error("expected a request");
    const { request } = parsed;
    const answered = settleAnswers(request.questions, { contact: ["ada@example.com"], seats: ["4"] });
    const accepted = outcomeToMcpResult(request, answered);
    expect(accepted).toEqual({
      action: "accept",
      content: { seats: 4, contact: "ada@example.com", diets: ["vegan"], outside: false },
    });
    expect(mcpResultToOutcome(request, accepted)?.answers).toEqual(answered.answers);
    expect(outcomeToMcpResult(request, settleSkipped(request.questions))).toEqual({ action: "decline" });
    expect(mcpResultToOutcome(request, { action: "decline" })?.skipped).toBe(true);
    expect(outcomeToMcpResult(request, undefined)).toEqual({ action: "cancel" });
    expect(mcpResultToOutcome(request, { action: "cancel" })).toBeUndefined();
  });

  it("refuses URL mode, and drops a default that breaks its own schema", () => {
    const url = mcpElicitationToRequest({
      mode: "url",
      message: "Connect your account.",
      url: "https://example.com/connect",
      elicitationId: "e-1",
    });
    expect(url.success ? [] : url.issues.map((issue) => issue.message)).toEqual([
      "mode url cannot be asked as questions; open the URL instead",
    ]);
    const bad = mcpElicitationToRequest({
      message: "m",
      requestedSchema: {
        type: "object",
        properties: {
          n: { type: "number", maximum: 3, default: 7 },
          pick: { type: "string", enum: ["a", "b"], default: "z" },
        },
      },
    });
    if (!bad.success) throw new Error(bad.issues.map((issue) => issue.message).join("\n"));
    expect(bad.request.questions.map((question) => question.defaults)).toEqual([undefined, undefined]);
  });
});

describe("MCP names and values Prepick cannot use as they are", () => {
  it("maps __proto__, constructor, '' and ~-names to safe ids and back, and an enum value '' to an option", () => {
    // JSON.parse makes `__proto__` a property of its own, as a JSON-RPC message does.
    const properties = JSON.parse(
      '{"__proto__": {"type": "string", "enum": ["", "x"]}, "constructor": {"type": "boolean"}, "": {"type": "number"}, "~a": {"type": "string"}}',
    );
    const parsed = mcpElicitationToRequest({ message: "m", requestedSchema: { type: "object", properties } });
    if (!parsed.success) throw new Error(parsed.issues.map((issue) => issue.message).join("\n"));
    const { questions } = parsed.request;
    expect(questions.map((question) => [question.id, question.prompt])).toEqual([
      ["~__proto__", "__proto__"],
      ["~constructor", "constructor"],
      ["~", "(empty)"],
      ["~~a", "~a"],
    ]);
    expect(questions[0]?.options?.map((option) => [option.value, option.label])).toEqual([
      ["~", "(empty)"],
      ["x", "x"],
    ]);
    const outcome = settleAnswers(questions, {
      "~__proto__": ["~"],
      "~constructor": ["true"],
      "~": ["4"],
      "~~a": ["b"],
    });
    const result = outcomeToMcpResult(parsed.request, outcome);
    expect(result.action === "accept" && Object.entries(result.content)).toEqual([
      ["__proto__", ""],
      ["constructor", true],
      ["", 4],
      ["~a", "b"],
    ]);
    expect(mcpResultToOutcome(parsed.request, result)?.answers).toEqual(outcome.answers);
  });
});

describe("OpenCode question", () => {
  const asked = {
    id: "que_1",
    sessionID: "ses_1",
    questions: [
      {
        question: "Which framework?",
        header: "Framework",
        options: [
          { label: "React", description: "Components" },
          { label: "Solid (Recommended)", description: "Signals" },
        ],
      },
      {
        question: "Which checks?",
        header: "Checks",
        multiple: true,
        custom: false,
        options: [
          { label: "Lint", description: "" },
          { label: "Types", description: "" },
        ],
      },
    ],
  };

  it("pre-picks the recommended option and keeps labels as values", () => {
    const parsed = openCodeQuestionToRequest(asked);
    if (!parsed.success) throw new Error(parsed.issues.map((issue) => issue.message).join("\n"));
    const [framework, checks] = parsed.request.questions;
    expect(framework).toMatchObject({
      id: "q1",
      prompt: "Which framework?",
      allowFreeText: true,
      defaults: ["Solid (Recommended)"],
    });
    expect(checks).toMatchObject({ id: "q2", multiple: true, defaults: ["Lint"] });
    expect(checks?.allowFreeText).toBeUndefined();
  });

  it("replies with labels in order, replies with the pre-picks on a skip, rejects when dismissed", () => {
    const parsed = openCodeQuestionToRequest(asked);
    if (!parsed.success) throw new Error("expected a request");
    const { request } = parsed;
    const answered = settleAnswers(request.questions, { q1: ["Svelte"], q2: ["Lint", "Types"] });
    expect(outcomeToOpenCodeAnswer(request, answered)).toEqual({
      type: "reply",
      answers: [["Svelte"], ["Lint", "Types"]],
    });
    expect(outcomeToOpenCodeAnswer(request, settleSkipped(request.questions))).toEqual({
      type: "reply",
      answers: [["Solid (Recommended)"], ["Lint"]],
    });
    expect(outcomeToOpenCodeAnswer(request, undefined)).toEqual({ type: "reject" });
    expect(openCodeReplyToOutcome(request, [["React"], ["Types"]]).answers).toEqual({
      q1: ["React"],
      q2: ["Types"],
    });
  });
});
