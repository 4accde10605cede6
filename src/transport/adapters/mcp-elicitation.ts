import { checkQuestions, type DefinitionIssue, withHotkeys } from "@/lib/prepick/core/check-questions";
import { formatDecimal } from "@/lib/prepick/core/coerce-answer";
import { settleAnswers, settleSkipped } from "@/lib/prepick/core/outcome";
import type { ElicitationOutcome, ElicitationRequest, Option, Question } from "@/lib/prepick/core/question";

/** One choice of an MCP titled enum (`oneOf` / `anyOf` entries). */
export interface McpTitledChoice {
  /** The value sent back. */
  const: string;
  /** What the person reads. */
  title?: string;
}

/** One property of an MCP form-mode `requestedSchema`: a primitive, an enum or a multi-select. */
export interface McpPrimitiveSchema {
  /** `string`, `number`, `integer`, `boolean` or `array` (multi-select). */
  type: "string" | "number" | "integer" | "boolean" | "array";
  /** The label of the field. */
  title?: string;
  /** A line of help. */
  description?: string;
  /** Shortest text. */
  minLength?: number;
  /** Longest text. */
  maxLength?: number;
  /** `email`, `uri`, `date` or `date-time`. */
  format?: string;
  /** Smallest number. */
  minimum?: number;
  /** Largest number. */
  maximum?: number;
  /** Untitled single-select values. */
  enum?: string[];
  /** Legacy display names for `enum`. */
  enumNames?: string[];
  /** Titled single-select values. */
  oneOf?: McpTitledChoice[];
  /** The items of a multi-select. */
  items?: { type?: "string"; enum?: string[]; anyOf?: McpTitledChoice[] };
  /** Fewest selected items (not carried). */
  minItems?: number;
  /** Most selected items (not carried). */
  maxItems?: number;
  /** The server's default. */
  default?: string | number | boolean | string[];
}

/** The params of an MCP `elicitation/create` request in form mode. */
export interface McpElicitationParams {
  /** `form` (or absent, which means form). URL mode cannot be carried. */
  mode?: "form" | "url";
  /** What the person is told: becomes the preamble. */
  message: string;
  /** The flat object schema of the fields. */
  requestedSchema: {
    type: "object";
    properties: Record<string, McpPrimitiveSchema>;
    required?: string[];
  };
}

/** The value of one field in an accepted MCP result. */
export type McpFieldValue = string | number | boolean | string[];

/** The result an MCP client returns for an elicitation. */
export type McpElicitationResult =
  | { action: "accept"; content: Record<string, McpFieldValue> }
  | { action: "decline" }
  | { action: "cancel" };

/** The result of reading an MCP elicitation as questions. */
export type ParsedMcpElicitation =
  | { success: true; request: ElicitationRequest }
  | { success: false; issues: DefinitionIssue[] };

function choices(schema: McpPrimitiveSchema): Option[] | undefined {
  const titled = schema.oneOf ?? schema.items?.anyOf;
  if (titled) return titled.map((choice) => ({ value: choice.const, label: choice.title ?? choice.const }));
  const values = schema.enum ?? schema.items?.enum;
  return values?.map((value, index) => ({ value, label: schema.enumNames?.[index] ?? value }));
}

function defaultsOf(schema: McpPrimitiveSchema, options: Option[] | undefined): string[] | undefined {
  const given = schema.default;
  if (Array.isArray(given))
    return given.length > 0 ? given : options?.slice(0, 1).map((option) => option.value);
  if (typeof given === "number") return [formatDecimal(given)];
  if (typeof given === "boolean") return [given ? "true" : "false"];
  if (typeof given === "string") return [given];
  // A choice always pre-picks in Prepick; without the server's default, its first option is the pick.
  return options?.slice(0, 1).map((option) => option.value);
}

function question(id: string, schema: McpPrimitiveSchema, required: boolean): Question {
  const options = choices(schema);
  const defaults = defaultsOf(schema, options);
  const base = {
    id,
    prompt: schema.title ?? id,
    ...(schema.description !== undefined ? { description: schema.description } : {}),
    ...(defaults !== undefined ? { defaults } : {}),
  };
  if (options)
    return withHotkeys({ ...base, options, ...(schema.type === "array" ? { multiple: true } : {}) });
  const requirement = required ? { required: true } : {};
  if (schema.type === "boolean") return { ...base, input: { type: "boolean", ...requirement } };
  if (schema.type === "number" || schema.type === "integer") {
    return {
      ...base,
      input: {
        type: "number",
        ...(schema.minimum !== undefined ? { min: schema.minimum } : {}),
        ...(schema.maximum !== undefined ? { max: schema.maximum } : {}),
        ...(schema.type === "integer" ? { pattern: "-?[0-9]+" } : {}),
        ...requirement,
      },
    };
  }
  const type =
    schema.format === "email"
      ? "email"
      : schema.format === "uri"
        ? "url"
        : schema.format === "date"
          ? "date"
          : "text";
  return {
    ...base,
    input: {
      type,
      ...(schema.minLength !== undefined && type !== "date" ? { min: schema.minLength } : {}),
      ...(schema.maxLength !== undefined && type !== "date" ? { max: schema.maxLength } : {}),
      ...requirement,
    },
  };
}

/**
 * Reads an MCP form-mode elicitation as a question set: each property becomes a question keyed by
 * its name, `message` the preamble. Refused (with issues) when it is URL mode or the result would
 * not pass `checkQuestions`. See docs/adapters.md for what does not carry over.
 */
export function mcpElicitationToRequest(params: McpElicitationParams): ParsedMcpElicitation {
  if (params.mode === "url") {
    return {
      success: false,
      issues: [{ path: "mode", message: "mode url cannot be asked as questions; open the URL instead" }],
    };
  }
  const required = new Set(params.requestedSchema.required ?? []);
  const questions = Object.entries(params.requestedSchema.properties).map(([id, schema]) =>
    question(id, schema, required.has(id)),
  );
  const issues = checkQuestions(questions);
  if (issues.length > 0) return { success: false, issues };
  return { success: true, request: { preamble: params.message, questions, source: "ask" } };
}

function typed(question: Question, values: readonly string[]): McpFieldValue | undefined {
  if (question.multiple) return [...values];
  const value = values[0];
  if (value === undefined) return undefined;
  if (question.input?.type === "number") return Number(value);
  if (question.input?.type === "boolean") return value === "true";
  return value;
}

/**
 * The MCP result for a settled question set: answered → `accept` with typed content, skipped →
 * `decline` (the server proceeds on its own), dismissed (no outcome) → `cancel`.
 */
export function outcomeToMcpResult(
  request: ElicitationRequest,
  outcome: ElicitationOutcome | undefined,
): McpElicitationResult {
  if (!outcome) return { action: "cancel" };
  if (outcome.skipped) return { action: "decline" };
  const content: Record<string, McpFieldValue> = {};
  for (const question of request.questions) {
    const value = typed(question, outcome.answers[question.id] ?? []);
    if (value !== undefined) content[question.id] = value;
  }
  return { action: "accept", content };
}

/** The outcome an MCP result stands for: accept → answered, decline → skipped, cancel → undefined (dismissed). */
export function mcpResultToOutcome(
  request: ElicitationRequest,
  result: McpElicitationResult,
): ElicitationOutcome | undefined {
  if (result.action === "cancel") return undefined;
  if (result.action === "decline") return settleSkipped(request.questions);
  const answers = Object.fromEntries(
    Object.entries(result.content).map(([id, value]) => [id, Array.isArray(value) ? value : [String(value)]]),
  );
  return settleAnswers(request.questions, answers);
}
