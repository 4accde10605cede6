import { DECIMAL, formatDecimal } from "./coerce-answer";
import { DEFAULT_URL_SCHEMES, isEmail, isUri, URL_SCHEMES, uriScheme } from "./formats";
import { exceedsPatternValueLimit, matchesPattern, PATTERN_VALUE_LIMIT } from "./pattern";
import { picksFromOptions, type Question } from "./question";

/** The rule a value or a definition broke. */
export type Rule =
  | "unknown-question"
  | "shape"
  | "option"
  | "multiple"
  | "min-items"
  | "max-items"
  | "required"
  | "number"
  | "step"
  | "boolean"
  | "date"
  | "datetime"
  | "email"
  | "url"
  | "scheme"
  | "min"
  | "max"
  | "pattern"
  | "pattern-length"
  // An edited tool input the tool's own schema refused, for a rule no question shows (a refinement).
  | "schema";

/** What is wrong with one value: the rule it broke, and the end of a sentence saying so. */
export interface ValueProblem {
  /** The rule the value broke. */
  rule: Rule;
  /** Completes "answers["seats"] …", e.g. `must be at most 9`. */
  text: string;
}

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATETIME = /^(\d{4}-\d{2}-\d{2})T(\d{2}):(\d{2})$/;

/** Whether `value` is a real calendar day written `YYYY-MM-DD`. */
export function isIsoDate(value: string): boolean {
  const match = DATE.exec(value);
  if (!match) return false;
  const [year, month, day] = match.slice(1).map(Number) as [number, number, number];
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

/** Whether `value` is a real local date and time written `YYYY-MM-DDTHH:mm` (24-hour clock). */
export function isIsoDateTime(value: string): boolean {
  const match = DATETIME.exec(value);
  if (!match) return false;
  const [day = "", hours = "", minutes = ""] = match.slice(1);
  return isIsoDate(day) && Number(hours) <= 23 && Number(minutes) <= 59;
}

/**
 * Whether `value` is an absolute URL as the MCP SDK takes `format: "uri"` (see formats.ts). The
 * schemes a question allows are checked apart, by the `scheme` rule.
 */
export function isUrl(value: string): boolean {
  return isUri(value);
}

/**
 * The schemes a `url` question allows: those of its own `schemes` that may be allowed at all
 * (http, https, mailto), else http and https. A `javascript:` in `schemes` allows nothing.
 */
export function allowedSchemes(question: Question): readonly string[] {
  const known: readonly string[] = URL_SCHEMES;
  const own = (question.input?.schemes ?? []).filter((scheme) => known.includes(scheme));
  return own.length > 0 ? own : DEFAULT_URL_SCHEMES;
}

function schemeProblem(question: Question, value: string): ValueProblem | undefined {
  const allowed = allowedSchemes(question);
  const scheme = uriScheme(value) ?? "";
  if (allowed.includes(scheme)) return undefined;
  const names = allowed.length === 1 ? allowed[0] : `${allowed.slice(0, -1).join(", ")} or ${allowed.at(-1)}`;
  return { rule: "scheme", text: `must use the scheme ${names}, not ${scheme}` };
}

/**
 * A decimal as a whole number of `10^-decimals`: `"2.5"` at 2 decimals is 250. BigInt is called,
 * never written as a literal (`250n`), so apps whose TypeScript targets below ES2020 (Next.js's
 * default) still compile the core.
 */
function scaled(decimal: string, decimals: number): bigint {
  const [whole = "0", fraction = ""] = decimal.split(".");
  const digits = BigInt(`${whole.replace("-", "")}${fraction.padEnd(decimals, "0")}`);
  return whole.startsWith("-") ? -digits : digits;
}

/**
 * Whether `number` is `base` plus a whole number of `step`s, in exact decimal arithmetic, so that
 * `0.3` is a step of `0.1` from 0 (binary floating point says `0.30000000000000004`).
 */
export function isOnStep(number: number, base: number, step: number): boolean {
  const written = [number, base, step].map(formatDecimal);
  const decimals = Math.max(...written.map((text) => text.split(".")[1]?.length ?? 0));
  const [value, start, distance] = written.map((text) => scaled(text, decimals)) as [bigint, bigint, bigint];
  return (value - start) % distance === BigInt(0);
}

function stepProblem(number: number, min: unknown, step: number): ValueProblem | undefined {
  const base = typeof min === "number" ? min : 0;
  if (isOnStep(number, base, step)) return undefined;
  if (step === 1 && Number.isInteger(base)) return { rule: "step", text: "must be a whole number" };
  return {
    rule: "step",
    text:
      base === 0
        ? `must be a multiple of ${formatDecimal(step)}`
        : `must be ${formatDecimal(base)} plus a multiple of ${formatDecimal(step)}`,
  };
}

function quoteList(values: readonly string[]): string {
  return values.map((value) => JSON.stringify(value)).join(", ");
}

function lengthProblem(question: Question, value: string): ValueProblem | undefined {
  const { min, max } = question.input ?? {};
  const length = [...value].length;
  if (typeof min === "number" && length < min) {
    return { rule: "min", text: `must be at least ${min} character${min === 1 ? "" : "s"}` };
  }
  if (typeof max === "number" && length > max) {
    return { rule: "max", text: `must be at most ${max} character${max === 1 ? "" : "s"}` };
  }
  return undefined;
}

function typeProblem(question: Question, value: string): ValueProblem | undefined {
  const input = question.input;
  switch (input?.type) {
    case "number": {
      // `Number` also reads `0x10`, `0b1` and `0o7`; an answer is a decimal, as it is stored.
      const number = Number(value);
      if (!DECIMAL.test(value) || !Number.isFinite(number)) {
        return { rule: "number", text: "must be a number written in decimals" };
      }
      if (typeof input.min === "number" && number < input.min) {
        return { rule: "min", text: `must be at least ${input.min}` };
      }
      if (typeof input.max === "number" && number > input.max) {
        return { rule: "max", text: `must be at most ${input.max}` };
      }
      return input.step !== undefined && input.step > 0 && Number.isFinite(input.step)
        ? stepProblem(number, input.min, input.step)
        : undefined;
    }
    case "boolean":
      return value === "true" || value === "false"
        ? undefined
        : { rule: "boolean", text: "must be true or false" };
    case "date": {
      if (!isIsoDate(value)) {
        return { rule: "date", text: "must be a date written YYYY-MM-DD" };
      }
      if (typeof input.min === "string" && value < input.min) {
        return { rule: "min", text: `must be on or after ${input.min}` };
      }
      if (typeof input.max === "string" && value > input.max) {
        return { rule: "max", text: `must be on or before ${input.max}` };
      }
      return undefined;
    }
    case "datetime": {
      if (!isIsoDateTime(value)) {
        return { rule: "datetime", text: "must be a date and time written YYYY-MM-DDTHH:mm" };
      }
      // Canonical values of one length compare as text in time order.
      if (typeof input.min === "string" && value < input.min) {
        return { rule: "min", text: `must be at or after ${input.min}` };
      }
      if (typeof input.max === "string" && value > input.max) {
        return { rule: "max", text: `must be at or before ${input.max}` };
      }
      return undefined;
    }
    case "email":
      return isEmail(value)
        ? lengthProblem(question, value)
        : { rule: "email", text: "must be an email address" };
    case "url":
      if (!isUri(value)) return { rule: "url", text: "must be a URL such as https://example.com" };
      return schemeProblem(question, value) ?? lengthProblem(question, value);
    default:
      return lengthProblem(question, value);
  }
}

/**
 * What is wrong with one canonical value for `question`, or `undefined` when it passes every
 * rule: an option (or free text where allowed), its type, `min`/`max` and the whole-value `pattern`.
 */
export function valueProblem(question: Question, value: string): ValueProblem | undefined {
  if (picksFromOptions(question)) {
    const values = (question.options ?? []).map((option) => option.value);
    if (values.includes(value)) return undefined;
    if (!question.allowFreeText) {
      return { rule: "option", text: `must be one of ${quoteList(values)}` };
    }
  }
  const problem = typeProblem(question, value);
  if (problem) return problem;
  const pattern = question.input?.pattern;
  if (pattern !== undefined && exceedsPatternValueLimit(value)) {
    return {
      rule: "pattern-length",
      text: `must be at most ${PATTERN_VALUE_LIMIT} characters to be checked against its pattern`,
    };
  }
  if (pattern !== undefined && !matchesPattern(pattern, value)) {
    return { rule: "pattern", text: `must match the pattern ${pattern}` };
  }
  return undefined;
}

/** Whether a `minItems`/`maxItems` is usable: a whole number from 0. */
export function isCount(value: number | undefined): value is number {
  return Number.isInteger(value) && (value ?? -1) >= 0;
}

function values(count: number): string {
  return `${count} value${count === 1 ? "" : "s"}`;
}

/**
 * What is wrong with how many values a `multiple` question's answer holds, or `undefined`: fewer
 * than `minItems` (an emptied answer too, as JSON Schema counts an empty array) or more than
 * `maxItems`. An answer left out is not counted; it stands on the defaults.
 */
export function countProblem(question: Question, count: number): ValueProblem | undefined {
  if (!question.multiple) return undefined;
  const { minItems, maxItems } = question;
  if (isCount(minItems) && count < minItems) {
    return { rule: "min-items", text: `must hold at least ${values(minItems)}, not ${count}` };
  }
  if (isCount(maxItems) && count > maxItems) {
    return { rule: "max-items", text: `must hold at most ${values(maxItems)}, not ${count}` };
  }
  return undefined;
}

/** Whether a question needs at least one value, from the person or from its defaults. */
export function isRequired(question: Question): boolean {
  if (question.input?.required !== undefined) return question.input.required;
  // A radio group cannot be left empty; a set of checkboxes can. A select picks like a radio group.
  return (question.input === undefined || question.input.type === "select") && !question.multiple;
}
