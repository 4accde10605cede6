import type { ElicitationRequest } from "prepick/core";
import { describe, expect, it } from "vitest";
import { bookingIntake, refactorerIntake } from "../../../src/core/spec-examples";
import {
  type McpElicitationFormParams,
  mcpElicitationToRequest,
} from "../../../src/transport/adapters/mcp-elicitation";
import { payloadAnswers, questionsSchema } from "./response-schema";

/** The questions a client that reads only `responseSchema` (as MCP's form schema) gets back. */
function readBack(request: ElicitationRequest) {
  const params = {
    message: request.preamble ?? "",
    requestedSchema: questionsSchema(request) as unknown as McpElicitationFormParams["requestedSchema"],
  };
  const parsed = mcpElicitationToRequest(params);
  if (!parsed.success) throw new Error(JSON.stringify(parsed.issues));
  return parsed.request.questions;
}

describe("questionsSchema: the responseSchema of a question set", () => {
  it("carries the refactorer's choices, labels, multiple choice and pre-picked defaults", () => {
    const request = { ...refactorerIntake, source: "intake" } as ElicitationRequest;
    expect(questionsSchema(request).required).toEqual(["scope", "api"]);
    expect(readBack(request)).toEqual(
      request.questions.map((question) =>
        expect.objectContaining({
          id: question.id,
          prompt: question.prompt,
          options: question.options?.map((option) =>
            expect.objectContaining({ value: option.value, label: option.label }),
          ),
          defaults: question.defaults,
          ...(question.multiple ? { multiple: true } : {}),
        }),
      ),
    );
  });

  it("carries typed questions with their bounds, format, requirement and typed defaults", () => {
    const request = { ...bookingIntake, source: "intake" } as ElicitationRequest;
    const schema = questionsSchema(request);
    expect(schema.properties.seats).toEqual({
      type: "number",
      title: "How many seats?",
      description: "Between 1 and 9.",
      minimum: 1,
      maximum: 9,
      default: 2,
    });
    expect(schema.properties.contact).toEqual({
      type: "string",
      title: "Who should we email?",
      format: "email",
    });
    expect(schema.required).toEqual(["seats", "contact"]);
    const [seats, contact, notes] = readBack(request);
    expect(seats).toMatchObject({
      id: "seats",
      input: { type: "number", min: 1, max: 9, required: true },
      defaults: ["2"],
    });
    expect(contact).toMatchObject({ id: "contact", input: { type: "email", required: true } });
    expect(contact?.defaults).toBeUndefined();
    expect(notes).toMatchObject({ id: "notes", input: { type: "text", max: 500 } });
  });

  it("anchors a pattern, which ours matches against the whole value", () => {
    const request: ElicitationRequest = {
      questions: [{ id: "code", prompt: "Which code?", input: { type: "text", pattern: "[A-Z]{3}" } }],
    };
    expect(questionsSchema(request).properties.code?.pattern).toBe("^(?:[A-Z]{3})$");
  });
});

describe("payloadAnswers: a resume payload read as answers", () => {
  it("turns JSON types into canonical strings, and leaves what it cannot read for the checks to refuse", () => {
    expect(
      payloadAnswers({ seats: 3, ratio: 0.5, flag: true, contact: "a@b.co", tests: ["unit", "e2e"] }),
    ).toEqual({
      seats: ["3"],
      ratio: ["0.5"],
      flag: ["true"],
      contact: ["a@b.co"],
      tests: ["unit", "e2e"],
    });
    expect(payloadAnswers({ nested: { a: 1 }, empty: null })).toEqual({ nested: { a: 1 }, empty: [null] });
    expect(payloadAnswers(undefined)).toBeUndefined();
    expect(payloadAnswers("yes")).toBe("yes");
  });
});
