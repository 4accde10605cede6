import {
  answersOfInput,
  checkQuestions,
  type Option,
  type Question,
  type QuestionInput,
  withHotkeys,
} from "prepick/core";
import { z } from "zod";
import type { ToolDefinition } from "./types";

/** One field of a tool's input that a person may change when approving the call. */
export interface EditableField {
  /** The field as a question (its id the field's name), without defaults: the proposal fills them. */
  question: Question;
  /** What a field the person empties becomes: left out of the input (optional), or `null` (nullable). */
  empty: "omit" | "null";
}

/** The parts of a JSON Schema node this mapping reads. */
interface SchemaNode {
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  anyOf?: unknown[];
  oneOf?: unknown[];
  title?: string;
  description?: string;
  format?: string;
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  multipleOf?: number;
  items?: unknown;
  minItems?: number;
  maxItems?: number;
  properties?: Record<string, unknown>;
  required?: string[];
  $ref?: string;
}

/** A text field this long or longer may hold paragraphs: it is asked with a textarea. */
const TEXTAREA_FROM = 200;

function isNode(value: unknown): value is SchemaNode {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** `camelCase` or `snake_case` as words: `olderThan` → `Older than`. */
function humanize(name: string): string {
  const words = name
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .replace(/[_-]+/g, " ")
    .trim()
    .toLowerCase();
  return words === "" ? name : words[0]?.toUpperCase() + words.slice(1);
}

/** The node without `null` in its type, and whether it allowed `null`. */
function withoutNull(node: SchemaNode): { node: SchemaNode; nullable: boolean } {
  if (Array.isArray(node.type) && node.type.includes("null")) {
    const rest = node.type.filter((type) => type !== "null");
    return { node: { ...node, type: rest.length === 1 ? rest[0] : rest }, nullable: true };
  }
  const variants = node.anyOf ?? node.oneOf;
  if (variants?.some((variant) => isNode(variant) && variant.type === "null")) {
    const rest = variants.filter((variant) => !(isNode(variant) && variant.type === "null"));
    if (rest.length === 1 && isNode(rest[0])) {
      const { anyOf: _anyOf, oneOf: _oneOf, ...outer } = node;
      return { node: { ...outer, ...rest[0] }, nullable: true };
    }
    const key = node.anyOf ? "anyOf" : "oneOf";
    return { node: { ...node, [key]: rest }, nullable: true };
  }
  return { node, nullable: false };
}

/** The options of an `enum` of strings, or of `anyOf`/`oneOf` string constants with titles. */
function optionsOf(node: SchemaNode): Option[] | string | undefined {
  if (node.enum !== undefined) {
    if (!node.enum.every((value) => typeof value === "string" && value !== "")) {
      return "an enum of values other than non-empty strings cannot be asked as options";
    }
    return (node.enum as string[]).map((value) => ({ value, label: value }));
  }
  const variants = node.anyOf ?? node.oneOf;
  if (variants === undefined) return undefined;
  const options: Option[] = [];
  for (const variant of variants) {
    if (!isNode(variant) || typeof variant.const !== "string" || variant.const === "") {
      return "a union other than string constants cannot be asked as one question";
    }
    options.push({
      value: variant.const,
      label: variant.title || variant.const,
      ...(variant.description ? { description: variant.description } : {}),
    });
  }
  return options;
}

/**
 * A JSON Schema `pattern` (matched anywhere in the value) as a question's pattern (matched against
 * the whole value): `^…$` without alternation is the same pattern unanchored, anything else is
 * wrapped so it may match anywhere, as it did.
 */
function wholeValuePattern(pattern: string): string {
  const anchored = pattern.startsWith("^") && pattern.endsWith("$") && !pattern.endsWith("\\$");
  const inner = pattern.slice(1, -1);
  if (anchored && !inner.includes("|")) return inner;
  return `(?s:.*)(?:${pattern})(?s:.*)`;
}

function textInput(node: SchemaNode): QuestionInput | string {
  const bounds = {
    ...(node.minLength !== undefined ? { min: node.minLength } : {}),
    ...(node.maxLength !== undefined ? { max: node.maxLength } : {}),
  };
  switch (node.format) {
    case "email":
      return { type: "email", ...bounds };
    case "uri":
      return { type: "url", ...bounds };
    case "date":
      return { type: "date" };
    case "date-time":
      return "a date-time with a time zone cannot be asked: a question takes a local date and time";
    default: {
      if (node.format !== undefined && node.pattern === undefined) {
        return `the format "${node.format}" has no question type`;
      }
      const long = node.maxLength === undefined ? false : node.maxLength >= TEXTAREA_FROM;
      return {
        type: long ? "textarea" : "text",
        ...bounds,
        ...(node.pattern !== undefined ? { pattern: wholeValuePattern(node.pattern) } : {}),
      };
    }
  }
}

function numberInput(node: SchemaNode, integer: boolean): QuestionInput | string {
  let min = node.minimum;
  let max = node.maximum;
  if (node.exclusiveMinimum !== undefined) {
    if (!integer) return "an exclusive minimum on a number cannot be asked (use .min(), or .int())";
    min = Math.max(min ?? Number.NEGATIVE_INFINITY, Math.floor(node.exclusiveMinimum) + 1);
  }
  if (node.exclusiveMaximum !== undefined) {
    if (!integer) return "an exclusive maximum on a number cannot be asked (use .max(), or .int())";
    max = Math.min(max ?? Number.POSITIVE_INFINITY, Math.ceil(node.exclusiveMaximum) - 1);
  }
  if (integer) {
    if (min !== undefined) min = Math.ceil(min);
    if (max !== undefined) max = Math.floor(max);
  }
  let step = integer ? 1 : undefined;
  if (node.multipleOf !== undefined) {
    // A question counts steps from its minimum, JSON Schema from 0: they agree when the minimum is on a step.
    if (min !== undefined && !Number.isInteger(min / node.multipleOf)) {
      return `a multiple of ${node.multipleOf} from a minimum of ${min} cannot be asked`;
    }
    if (integer && !Number.isInteger(node.multipleOf))
      return "a fractional multipleOf on an integer cannot be asked";
    step = node.multipleOf;
  }
  return {
    type: "number",
    ...(min !== undefined ? { min } : {}),
    ...(max !== undefined ? { max } : {}),
    ...(step !== undefined ? { step } : {}),
  };
}

/** One property as a question, or why it cannot be one. */
function fieldOf(name: string, property: unknown, required: boolean): EditableField | string {
  if (!isNode(property)) return "it has no schema";
  if (property.$ref !== undefined) return "a recursive schema cannot be asked";
  const { node, nullable } = withoutNull(property);
  const prompt = node.title || node.description || humanize(name);
  const base = {
    id: name,
    prompt,
    ...(node.title && node.description ? { description: node.description } : {}),
  };
  const empty = required && nullable ? "null" : "omit";
  const needed = required && !nullable;
  if (node.const !== undefined) return "a constant has nothing to edit";
  const options = optionsOf(node);
  if (typeof options === "string") return options;
  if (options) {
    // A single choice is a radio group, required unless the field may be left empty.
    const input = needed ? {} : { input: { type: "select" as const, required: false } };
    return { question: withHotkeys({ ...base, options, ...input }), empty };
  }
  const requirement = needed ? { required: true } : {};
  const type = Array.isArray(node.type) ? undefined : node.type;
  let input: QuestionInput | string;
  switch (type) {
    case "string":
      input = textInput(node);
      break;
    case "number":
    case "integer":
      input = numberInput(node, type === "integer");
      break;
    case "boolean":
      input = { type: "boolean" };
      break;
    case "array": {
      const items = Array.isArray(node.items) ? undefined : node.items;
      const choices = isNode(items) ? optionsOf(items) : undefined;
      if (typeof choices !== "object") return "only an array of string choices can be asked (as checkboxes)";
      const counts = {
        ...(node.minItems !== undefined ? { minItems: node.minItems } : {}),
        ...(node.maxItems !== undefined ? { maxItems: node.maxItems } : {}),
      };
      return { question: withHotkeys({ ...base, options: choices, multiple: true, ...counts }), empty };
    }
    case "object":
      return "an object cannot be asked as one question (list the fields a person may edit)";
    default:
      return `a value of type ${JSON.stringify(node.type ?? "any")} cannot be asked as a question`;
  }
  if (typeof input === "string") return input;
  return { question: { ...base, input: { ...input, ...requirement } }, empty };
}

/**
 * The editable fields of a tool, from its zod input schema as JSON Schema (what the model sees):
 * one question per field `editable` names (every property for `true`), typed with the question
 * model's input types and rules (strings with their lengths, formats and pattern, numbers and
 * integers with bounds and steps, booleans, enums and string-constant unions as options, arrays
 * of those as checkboxes), or the problems, one sentence per field a question cannot express.
 */
export function editableFields(
  tool: Pick<ToolDefinition, "inputSchema" | "editable">,
): { fields: EditableField[] } | { problems: string[] } {
  let schema: SchemaNode;
  try {
    schema = z.toJSONSchema(tool.inputSchema, {
      io: "input",
      unrepresentable: "any",
      reused: "inline",
    }) as unknown as SchemaNode;
  } catch (error) {
    return { problems: [`its inputSchema cannot be read as JSON Schema: ${(error as Error).message}`] };
  }
  try {
    // The edited input is parsed again before it runs: parsing must take its own output.
    z.toJSONSchema(tool.inputSchema, { io: "output", unrepresentable: "throw", reused: "inline" });
  } catch (error) {
    return {
      problems: [
        `editable needs an inputSchema whose parsed input parses again the same, without transforms: ${(error as Error).message}`,
      ],
    };
  }
  const properties = schema.type === "object" && isNode(schema.properties) ? schema.properties : undefined;
  if (!properties) return { problems: ["editable needs an object inputSchema (z.object({ … }))"] };
  const names = tool.editable === true ? Object.keys(properties) : [...(tool.editable || [])];
  if (names.length === 0) return { problems: ["editable names no field: list at least one, or set true"] };
  const required = new Set(schema.required ?? []);
  const problems: string[] = [];
  const fields: EditableField[] = [];
  for (const name of new Set(names)) {
    if (!Object.hasOwn(properties, name)) {
      problems.push(
        `editable field "${name}" is not in its inputSchema (${Object.keys(properties).join(", ")})`,
      );
      continue;
    }
    const field = fieldOf(name, properties[name], required.has(name));
    if (typeof field === "string") problems.push(`editable field "${name}" cannot be a question: ${field}`);
    else fields.push(field);
  }
  // The question model's own rules (ids, bounds, patterns, counts) hold as for any question set.
  const issues = checkQuestions(
    fields.map((field) => field.question),
    { unpickedChoices: true },
  );
  for (const issue of issues) {
    problems.push(`editable field "${issue.questionId ?? "?"}" cannot be a question: ${issue.message}`);
  }
  return problems.length > 0 ? { problems } : { fields };
}

/** The questions of one approval: each editable field pre-picked with the model's proposed value. */
export function approvalQuestions(fields: readonly EditableField[], input: unknown): Question[] {
  const questions = fields.map((field) => field.question);
  const proposed = answersOfInput(questions, input);
  return questions.map((question) => ({ ...question, defaults: proposed[question.id] ?? [] }));
}

/** What an emptied field of `fields` becomes: left out, or `null` where its schema is nullable. */
export function emptiedAs(fields: readonly EditableField[]): (questionId: string) => "omit" | "null" {
  return (questionId) => fields.find((field) => field.question.id === questionId)?.empty ?? "omit";
}
