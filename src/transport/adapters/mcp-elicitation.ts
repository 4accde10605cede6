import { checkQuestions, type DefinitionIssue, withHotkeys } from "@/lib/prepick/core/check-questions";
import { formatDecimal } from "@/lib/prepick/core/coerce-answer";
import { settleAnswers, settleSkipped } from "@/lib/prepick/core/outcome";
import type { ElicitationOutcome, ElicitationRequest, Option, Question } from "@/lib/prepick/core/question";
import { countProblem } from "@/lib/prepick/core/value-problem";
import { localDateTimeOf, rfc3339Of } from "./mcp-date-time";
import { mcpEnumValue, mcpOptionValue, mcpPropertyName, mcpQuestionId } from "./mcp-names";

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
  /** Fewest selected items. */
  minItems?: number;
  /** Most selected items. */
  maxItems?: number;
  /** The server's default. */
  default?: string | number | boolean | string[];
}

/** The params of an MCP `elicitation/create` request in form mode (`mode` absent means form). */
export interface McpElicitationFormParams {
  /** `form`, or absent. */
  mode?: "form";
  /** What the person is told: becomes the preamble. */
  message: string;
  /** The flat object schema of the fields. */
  requestedSchema: {
    type: "object";
    properties: Record<string, McpPrimitiveSchema>;
    required?: string[];
  };
}

/** The params of an MCP `elicitation/create` request in URL mode: refused, it asks no questions. */
export interface McpElicitationUrlParams {
  /** `url`. */
  mode: "url";
  /** Why the person should open the URL. */
  message: string;
  /** The page the person is sent to. */
  url: string;
  /** The id the server completes the elicitation by. */
  elicitationId: string;
}

/** The params of an MCP `elicitation/create` request: the SDK's `ElicitRequest["params"]`. */
export type McpElicitationParams = McpElicitationFormParams | McpElicitationUrlParams;

/** The value of one field in an accepted MCP result. */
export type McpFieldValue = string | number | boolean | string[];

/** The result a Prepick client returns for an elicitation. */
export type McpElicitationResult =
  | { action: "accept"; content: Record<string, McpFieldValue> }
  | { action: "decline" }
  | { action: "cancel" };

/** An MCP elicitation result as it arrives (the SDK's `ElicitResult`): `content` may be absent, even on accept. */
export interface McpElicitationResponse {
  /** What the person did. */
  action: "accept" | "decline" | "cancel";
  /** The fields, on accept. */
  content?: Record<string, McpFieldValue>;
}

/** The result of reading an MCP elicitation as questions. */
export type ParsedMcpElicitation =
  | { success: true; request: ElicitationRequest }
  | { success: false; issues: DefinitionIssue[] };

const EMPTY_LABEL = "(empty)";

function choices(schema: McpPrimitiveSchema): Option[] | undefined {
  const titled = schema.oneOf ?? schema.items?.anyOf;
  const values = schema.enum ?? schema.items?.enum;
  const listed = titled
    ? titled.map((choice) => ({ value: choice.const, label: choice.title }))
    : values?.map((value, index) => ({ value, label: schema.enumNames?.[index] }));
  return listed?.map(({ value, label }) => ({
    value: mcpOptionValue(value),
    label: label || value || EMPTY_LABEL,
  }));
}

/** The server's default in canonical form; `undefined` when it gave none (or none Prepick can show). */
function givenDefaults(schema: McpPrimitiveSchema, question: Question): string[] | undefined {
  const given = schema.default;
  if (Array.isArray(given)) return question.options ? given.map(mcpOptionValue) : undefined;
  if (typeof given === "number") return [formatDecimal(given)];
  if (typeof given === "boolean") return [given ? "true" : "false"];
  if (typeof given !== "string") return undefined;
  if (question.options) return [mcpOptionValue(given)];
  if (question.input?.type !== "datetime") return [given];
  const local = localDateTimeOf(given);
  return local === undefined ? undefined : [local];
}

function textType(format: string | undefined) {
  if (format === "email") return "email";
  if (format === "uri") return "url";
  if (format === "date") return "date";
  if (format === "date-time") return "datetime";
  return "text";
}

function counts(schema: McpPrimitiveSchema) {
  return {
    ...(schema.minItems !== undefined ? { minItems: schema.minItems } : {}),
    ...(schema.maxItems !== undefined ? { maxItems: schema.maxItems } : {}),
  };
}

/** The bounds of a number; an integer's are the whole numbers inside them, as `step: 1` counts from `min`. */
function numberBounds(schema: McpPrimitiveSchema) {
  const whole = schema.type === "integer";
  const { minimum, maximum } = schema;
  return {
    ...(minimum !== undefined ? { min: whole ? Math.ceil(minimum) : minimum } : {}),
    ...(maximum !== undefined ? { max: whole ? Math.floor(maximum) : maximum } : {}),
    ...(whole ? { step: 1 } : {}),
  };
}

function shape(id: string, name: string, schema: McpPrimitiveSchema, required: boolean): Question {
  const options = choices(schema);
  const base = {
    id,
    prompt: schema.title || name || schema.description || EMPTY_LABEL,
    ...(schema.description !== undefined ? { description: schema.description } : {}),
  };
  const requirement = required ? { required: true } : {};
  if (options && schema.type === "array") {
    return withHotkeys({ ...base, options, multiple: true, ...counts(schema) });
  }
  // A single choice the server pre-picks is a radio group; one it does not is a select showing
  // "Choose…", required only when the server requires it.
  if (options) return withHotkeys({ ...base, options });
  if (schema.type === "boolean") return { ...base, input: { type: "boolean", ...requirement } };
  if (schema.type === "number" || schema.type === "integer") {
    return {
      ...base,
      input: { type: "number", ...numberBounds(schema), ...requirement },
    };
  }
  const type = textType(schema.format);
  // A date's length is fixed by its form; `min`/`max` on a date question are dates.
  const isText = type !== "date" && type !== "datetime";
  return {
    ...base,
    input: {
      type,
      // MCP's `uri` takes any scheme; Prepick's url rule allows these at most (never javascript:).
      ...(type === "url" ? { schemes: ["http", "https", "mailto"] } : {}),
      ...(schema.minLength !== undefined && isText ? { min: schema.minLength } : {}),
      ...(schema.maxLength !== undefined && isText ? { max: schema.maxLength } : {}),
      ...requirement,
    },
  };
}

function unpicked(question: Question, required: boolean): Question {
  if (question.multiple) {
    if (!required) return question;
    // Required with `minItems`, an untouched answer must not stand at `[]`: a select can be
    // required, checkboxes cannot. Required without, `[]` is an answer.
    if ((question.minItems ?? 0) > 0) return { ...question, input: { type: "select", required } };
    return { ...question, defaults: [] };
  }
  // A select is required unless it says otherwise; the server's `required` decides.
  if (question.options) return { ...question, input: { type: "select", required } };
  return question;
}

const UNPICKED = { unpickedChoices: true } as const;

/** The question for one property: the server's default when it passes the question's own rules, else none. */
function question(name: string, schema: McpPrimitiveSchema, required: boolean): Question {
  const shaped = shape(mcpQuestionId(name), name, schema, required);
  const defaults = givenDefaults(schema, shaped);
  if (defaults !== undefined && (defaults.length > 0 || shaped.multiple)) {
    const withDefaults = { ...shaped, defaults };
    // `[]` is not counted by the definition check, but the server's schema counts it.
    const counted = countProblem(withDefaults, new Set(defaults).size);
    if (!counted && checkQuestions([withDefaults], UNPICKED).length === 0) return withDefaults;
  }
  return unpicked(shaped, required);
}

/**
 * Reads an MCP form-mode elicitation as a question set: each property becomes a question (its id
 * the name, made safe by `mcpQuestionId`), `message` the preamble. A server default that breaks
 * its own schema is dropped, and a choice without a default starts unpicked. Refused (with
 * issues) when it is URL mode or the result would not pass `checkQuestions`. See docs/adapters.md.
 */
export function mcpElicitationToRequest(params: McpElicitationParams): ParsedMcpElicitation {
  if (params.mode === "url") {
    return {
      success: false,
      issues: [{ path: "mode", message: "mode url cannot be asked as questions; open the URL instead" }],
    };
  }
  const required = new Set(params.requestedSchema.required ?? []);
  const questions = Object.entries(params.requestedSchema.properties).map(([name, schema]) =>
    question(name, schema, required.has(name)),
  );
  const issues = checkQuestions(questions, UNPICKED);
  if (issues.length > 0) return { success: false, issues };
  return { success: true, request: { preamble: params.message, questions, source: "ask" } };
}

function typed(question: Question, values: readonly string[]): McpFieldValue | undefined {
  // An empty multi-select is sent as `[]` where the server's default is `[]` or the property is
  // required; otherwise, as an untouched optional field, it is left out.
  if (question.multiple) {
    return values.length > 0 || question.defaults !== undefined ? values.map(mcpEnumValue) : undefined;
  }
  const value = values[0];
  if (value === undefined) return undefined;
  if (question.options) return mcpEnumValue(value);
  if (question.input?.type === "number") return Number(value);
  if (question.input?.type === "boolean") return value === "true";
  if (question.input?.type === "datetime") return rfc3339Of(value);
  return value;
}

/**
 * The MCP result for a settled question set: answered → `accept` with typed content (a question
 * left with no value is left out), skipped → `decline` (the server proceeds on its own),
 * dismissed (no outcome) → `cancel`.
 */
export function outcomeToMcpResult(
  request: ElicitationRequest,
  outcome: ElicitationOutcome | undefined,
): McpElicitationResult {
  if (!outcome) return { action: "cancel" };
  if (outcome.skipped) return { action: "decline" };
  // Built from entries, so a property named `__proto__` is a field of its own, not the prototype.
  const content = Object.fromEntries(
    request.questions.flatMap((question) => {
      const value = typed(question, outcome.answers[question.id] ?? []);
      return value === undefined ? [] : [[mcpPropertyName(question.id), value] as const];
    }),
  );
  return { action: "accept", content };
}

function answerOf(question: Question, value: McpFieldValue): string[] {
  const values = Array.isArray(value) ? value : [String(value)];
  if (question.options) return values.map(mcpOptionValue);
  if (question.input?.type === "datetime") return values.map((text) => localDateTimeOf(text) ?? text);
  return values;
}

/** The outcome an MCP result stands for: accept → answered, decline → skipped, cancel → undefined (dismissed). */
export function mcpResultToOutcome(
  request: ElicitationRequest,
  result: McpElicitationResponse,
): ElicitationOutcome | undefined {
  if (result.action === "cancel") return undefined;
  if (result.action === "decline") return settleSkipped(request.questions);
  const content = result.content ?? {};
  const answers = Object.fromEntries(
    request.questions.flatMap((question) => {
      const name = mcpPropertyName(question.id);
      const value = Object.hasOwn(content, name) ? content[name] : undefined;
      return value === undefined ? [] : [[question.id, answerOf(question, value)]];
    }),
  );
  return settleAnswers(request.questions, answers);
}
