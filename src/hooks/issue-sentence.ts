import type { AnswerIssue } from "@/lib/prepick/core/answers";
import { PATTERN_VALUE_LIMIT } from "@/lib/prepick/core/pattern";
import type { Question } from "@/lib/prepick/core/question";
import { allowedSchemes, type Rule } from "@/lib/prepick/core/value-problem";
import { count, formatDate, formatNumber } from "./format-answer";
import type { DateRange, NumberRange, PrepickMessages } from "./prepick-messages";

/** What a sentence is built from. */
interface SentenceContext {
  /** The refusal, with its rule and value. */
  issue: AnswerIssue;
  /** The question it is on. */
  question: Question;
  /** The question's values as they stand. */
  values: readonly string[];
  /** The sentences and the locale. */
  messages: PrepickMessages;
}

/**
 * The agent's words set apart inside a sentence of the page's language (Unicode's first-strong
 * isolate, U+2068 … U+2069), so an English prompt keeps its "?" at its end in an Arabic sentence.
 */
function isolated(text: string): string {
  return `\u2068${text}\u2069`;
}

/** A numeric bound or step of the question's input, when it has a usable one. */
function numberParam(question: Question, key: "min" | "max" | "step"): number | undefined {
  const value = question.input?.[key];
  return typeof value === "number" && Number.isFinite(value) ? value : undefined;
}

/** A date or date-and-time bound of the question's input. */
function dateParam(question: Question, key: "min" | "max"): string | undefined {
  const value = question.input?.[key];
  return typeof value === "string" ? value : undefined;
}

function numberRange({ question, messages }: SentenceContext): NumberRange {
  const min = numberParam(question, "min");
  const max = numberParam(question, "max");
  const step = numberParam(question, "step");
  // Allowed numbers are the start (min, else 0) plus whole steps, as a native number field has it.
  const whole = step !== undefined && Number.isInteger(step) && Number.isInteger(min ?? 0);
  return {
    ...(min !== undefined ? { min: formatNumber(messages, min) } : {}),
    ...(max !== undefined ? { max: formatNumber(messages, max) } : {}),
    whole,
    ...(step !== undefined && step !== 1 ? { step: formatNumber(messages, step) } : {}),
  };
}

function dateRange({ question, messages }: SentenceContext): DateRange {
  const min = dateParam(question, "min");
  const max = dateParam(question, "max");
  return {
    ...(min !== undefined ? { min: formatDate(messages, min) } : {}),
    ...(max !== undefined ? { max: formatDate(messages, max) } : {}),
  };
}

function length(context: SentenceContext): number {
  return [...(context.issue.value ?? context.values[0] ?? "")].length;
}

/** A bound the value broke, said as a person reads it: a number's range, a date's, a text's length. */
function bound(context: SentenceContext, which: "min" | "max"): string {
  const { question, messages } = context;
  // A bound this copy of the question does not have (the server's is stricter) cannot be told.
  if (question.input?.[which] === undefined) return messages.errors.refused;
  switch (question.input.type) {
    case "number":
      return messages.errors.number(numberRange(context));
    case "date":
    case "datetime":
      return messages.errors.dateRange(dateRange(context));
    default: {
      const limit = numberParam(question, which);
      if (limit === undefined) return messages.errors.refused;
      const now = count(messages, length(context));
      return which === "min"
        ? messages.errors.textTooShort(count(messages, limit), now)
        : messages.errors.textTooLong(count(messages, limit), now);
    }
  }
}

/** How many values a multiple-choice question takes at least or at most. */
function picks(context: SentenceContext, which: "min" | "max"): string {
  const { question, messages, values } = context;
  const limit = which === "min" ? question.minItems : question.maxItems;
  if (limit === undefined) return messages.errors.refused;
  const now = count(messages, values.length);
  return which === "min"
    ? messages.errors.tooFewPicks(count(messages, limit), now)
    : messages.errors.tooManyPicks(count(messages, limit), now);
}

/** The schemes a web address may start with, as a person types them: `https://`, `mailto:`. */
function scheme({ question, messages }: SentenceContext): string {
  const list = new Intl.ListFormat(messages.locale, { type: "disjunction" });
  const starts = allowedSchemes(question).map((name) => (name === "mailto" ? "mailto:" : `${name}://`));
  return messages.errors.scheme(list.format(starts));
}

/**
 * One sentence per rule. `satisfies` makes the table exhaustive: a rule added to the core's
 * `Rule` union does not compile until it has its sentence here.
 */
const SENTENCES = {
  "unknown-question": ({ messages }) => messages.errors.unknownQuestion,
  shape: ({ messages }) => messages.errors.unreadable,
  option: ({ messages }) => messages.errors.option,
  multiple: ({ messages }) => messages.errors.single,
  required: ({ question, messages }) => messages.errors.required(isolated(question.prompt)),
  number: (context) => context.messages.errors.number(numberRange(context)),
  step: (context) => context.messages.errors.number(numberRange(context)),
  boolean: ({ messages }) => messages.errors.boolean,
  date: ({ messages }) => messages.errors.date,
  datetime: ({ messages }) => messages.errors.datetime,
  email: ({ messages }) => messages.errors.email,
  url: ({ messages }) => messages.errors.url,
  scheme,
  min: (context) => bound(context, "min"),
  max: (context) => bound(context, "max"),
  "min-items": (context) => picks(context, "min"),
  "max-items": (context) => picks(context, "max"),
  pattern: ({ question, messages }) => messages.errors.pattern(question.input?.placeholder),
  "pattern-length": (context) =>
    context.messages.errors.textTooLong(
      count(context.messages, PATTERN_VALUE_LIMIT),
      count(context.messages, length(context)),
    ),
  // Only the server knows the tool's own rule; its words are written for the API, not for a person.
  schema: ({ messages }) => messages.errors.refused,
} satisfies Record<Rule, (context: SentenceContext) => string>;

/**
 * The sentence a person reads for a refused answer, built from its rule and the question's own
 * parameters: `Enter a number from 1 to 9.` where the API says `answers["seats"] must be at most 9`.
 * `values` are the question's values as they stand (for counts). A rule this version does not know
 * (from a newer server) reads as a plain refusal, never as the API's string.
 */
export function issueSentence(
  issue: AnswerIssue,
  question: Question | undefined,
  values: readonly string[],
  messages: PrepickMessages,
): string {
  if (issue.rule === "unknown-question" || question === undefined) return messages.errors.unknownQuestion;
  const sentence = Object.hasOwn(SENTENCES, issue.rule)
    ? SENTENCES[issue.rule as keyof typeof SENTENCES]
    : undefined;
  return sentence ? sentence({ issue, question, values, messages }) : messages.errors.refused;
}

/** The live length of capped text: how many characters, the cap, and the line to show. */
export interface CharacterCount {
  /** Characters now (code points, as the rules count them). */
  count: number;
  /** The most allowed. */
  max: number;
  /** `488 characters left`, or `12 characters too many`. */
  text: string;
}

/**
 * The live count under a typed text field with a `max` (text, textarea, email, url), or
 * undefined for any other question.
 */
export function characterCount(
  question: Question,
  value: string,
  messages: PrepickMessages,
): CharacterCount | undefined {
  const type = question.input?.type;
  const max = question.input?.max;
  if (
    typeof max !== "number" ||
    (type !== "text" && type !== "textarea" && type !== "email" && type !== "url")
  ) {
    return undefined;
  }
  const length = [...value].length;
  const text =
    length <= max
      ? messages.form.charactersLeft(count(messages, max - length))
      : messages.form.charactersOver(count(messages, length - max));
  return { count: length, max, text };
}
