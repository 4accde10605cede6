import { type ElicitationRequest, formatDecimal, isRequired, type Question } from "prepick/core";

/** One property of a restricted (MCP form-mode) JSON Schema. */
type PropertySchema = Record<string, unknown>;

/** The restricted JSON Schema of a question set: a flat object of primitive properties. */
export interface QuestionsSchema {
  /** Always an object. */
  type: "object";
  /** One property per question, keyed by the question's id, in order. */
  properties: Record<string, PropertySchema>;
  /** The questions that need an answer. */
  required: string[];
}

function typed(question: Question, value: string): string | number | boolean {
  if (question.input?.type === "number") return Number(value);
  if (question.input?.type === "boolean") return value === "true";
  return value;
}

function choices(question: Question): { const: string; title: string }[] {
  return (question.options ?? []).map((option) => ({ const: option.value, title: option.label }));
}

function bounds(question: Question, [low, high]: [string, string]): PropertySchema {
  const { min, max } = question.input ?? {};
  return { ...(min !== undefined ? { [low]: min } : {}), ...(max !== undefined ? { [high]: max } : {}) };
}

function valueSchema(question: Question): PropertySchema {
  const input = question.input;
  const picks = input === undefined || input.type === "select";
  if (picks && !question.allowFreeText) return { type: "string", oneOf: choices(question) };
  if (picks) return { type: "string", examples: choices(question).map((choice) => choice.const) };
  switch (input?.type) {
    case "number":
      return { type: "number", ...bounds(question, ["minimum", "maximum"]) };
    case "boolean":
      return { type: "boolean" };
    case "date":
      // ajv-formats' keywords: JSON Schema itself bounds no dates.
      return { type: "string", format: "date", ...bounds(question, ["formatMinimum", "formatMaximum"]) };
    case "email":
    case "url":
    case "text":
    case "textarea":
      return {
        type: "string",
        ...(input.type === "email" ? { format: "email" } : input.type === "url" ? { format: "uri" } : {}),
        ...bounds(question, ["minLength", "maxLength"]),
        // Ours must match the whole value; a JSON Schema pattern matches anywhere.
        ...(input.pattern !== undefined ? { pattern: `^(?:${input.pattern})$` } : {}),
      };
    default:
      return { type: "string" };
  }
}

function propertySchema(question: Question): PropertySchema {
  const value = valueSchema(question);
  const defaults = question.defaults ?? [];
  const described = {
    title: question.prompt,
    ...(question.description !== undefined ? { description: question.description } : {}),
  };
  if (question.multiple) {
    const { oneOf, ...item } = value;
    return {
      type: "array",
      ...described,
      items: oneOf ? { type: "string", anyOf: oneOf } : item,
      uniqueItems: true,
      ...(question.defaults !== undefined
        ? { default: defaults.map((entry) => typed(question, entry)) }
        : {}),
    };
  }
  const [first] = defaults;
  return { ...value, ...described, ...(first !== undefined ? { default: typed(question, first) } : {}) };
}

/**
 * The restricted JSON Schema an interrupt's `responseSchema` carries for a question set, as MCP's
 * form-mode `requestedSchema` is written: one property per question, its prompt as `title`, its
 * pre-picked answer as `default` (typed: numbers, booleans, a multi-select an array), choices as
 * titled `oneOf` (`items.anyOf` for a multi-select), typed inputs with their `format` and bounds.
 * A client that reads only this schema gets the questions and their defaults; the full set
 * (hotkeys, placeholders, free text beside options) travels in `metadata.prepick.request`.
 */
export function questionsSchema(request: ElicitationRequest): QuestionsSchema {
  return {
    type: "object",
    properties: Object.fromEntries(
      request.questions.map((question) => [question.id, propertySchema(question)]),
    ),
    required: request.questions.filter(isRequired).map((question) => question.id),
  };
}

/**
 * Reads a resume payload (answers in JSON types, as MCP's `content` carries them) as our answers:
 * a string, number or boolean becomes one canonical string, an array each of its items. A value of
 * another type is kept as is, so the answer checks refuse it naming the question. A payload that
 * is not an object is returned unchanged, for the same reason.
 */
export function payloadAnswers(payload: unknown): unknown {
  if (typeof payload !== "object" || payload === null || Array.isArray(payload)) return payload;
  const scalar = (value: unknown): unknown =>
    typeof value === "number" && Number.isFinite(value)
      ? formatDecimal(value)
      : typeof value === "boolean"
        ? String(value)
        : value;
  return Object.fromEntries(
    Object.entries(payload).map(([id, value]) => [
      id,
      Array.isArray(value)
        ? value.map(scalar)
        : typeof value === "object" && value !== null
          ? value
          : [scalar(value)],
    ]),
  );
}
