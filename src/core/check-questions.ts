import { coerceAnswer } from "./coerce-answer";
import { URL_SCHEMES } from "./formats";
import { patternProblem } from "./pattern";
import { picksFromOptions, type Question, SKIP_HOTKEY } from "./question";
import { countProblem, isCount, isIsoDate, isIsoDateTime, valueProblem } from "./value-problem";

/** One thing wrong with a question definition, written for the person who wrote it. */
export interface DefinitionIssue {
  /** The question it concerns, when it has an id. */
  questionId?: string;
  /** Where in the set, e.g. `questions[1].defaults[0]`. */
  path: string;
  /** A whole sentence, e.g. `questions["seats"].defaults[0] "12" must be at most 9`. */
  message: string;
}

/**
 * Ids a question may not take, because they collide with object internals: every member of a plain
 * object (`toString`, `valueOf`, `hasOwnProperty`…), which a draft or an answers record read by id
 * would otherwise find, and `prototype`.
 */
export const RESERVED_QUESTION_IDS: ReadonlySet<string> = new Set([
  ...Object.getOwnPropertyNames(Object.prototype),
  "prototype",
]);

const HOTKEY = /^[a-z0-9]$/;
const AUTOMATIC_HOTKEYS = "abcdefghijklmnopqrtuvwxyz0123456789".split("");

function name(question: Question, index: number): string {
  return question.id ? `questions[${JSON.stringify(question.id)}]` : `questions[${index}]`;
}

function checkBounds(question: Question, report: (path: string, text: string) => void) {
  const input = question.input;
  if (!input || input.type === "boolean") return;
  const isDate = input.type === "date" || input.type === "datetime";
  for (const key of ["min", "max"] as const) {
    const bound = input[key];
    if (bound === undefined) continue;
    if (input.type === "date" && (typeof bound !== "string" || !isIsoDate(bound))) {
      report(`input.${key}`, `must be a date written YYYY-MM-DD on a date question`);
    } else if (input.type === "datetime" && (typeof bound !== "string" || !isIsoDateTime(bound))) {
      report(`input.${key}`, `must be a date and time written YYYY-MM-DDTHH:mm on a datetime question`);
    } else if (!isDate && typeof bound !== "number") {
      report(`input.${key}`, `must be a number`);
    } else if (!isDate && input.type !== "number" && !(Number.isInteger(bound) && Number(bound) >= 0)) {
      report(`input.${key}`, `must be a whole number of characters`);
    }
  }
  if (input.min !== undefined && input.max !== undefined && typeof input.min === typeof input.max) {
    if (input.min > input.max) report("input.min", `must not be greater than input.max`);
  }
  if (input.pattern !== undefined) {
    const problem = patternProblem(input.pattern);
    if (problem) report("input.pattern", `is not a valid pattern: ${problem}`);
  }
}

function checkStep(question: Question, report: (path: string, text: string) => void) {
  const input = question.input;
  if (input?.step === undefined) return;
  if (input.type !== "number") {
    report("input.step", `is only for number questions, not ${input.type}`);
  } else if (!(Number.isFinite(input.step) && input.step > 0)) {
    report("input.step", "must be a number greater than 0, such as 1 for whole numbers");
  }
}

function checkSchemes(question: Question, report: (path: string, text: string) => void) {
  const schemes = question.input?.schemes;
  if (schemes === undefined) return;
  if (question.input?.type !== "url") {
    report("input.schemes", `are only for url questions, not ${question.input?.type}`);
    return;
  }
  if (schemes.length === 0) report("input.schemes", "must name at least one scheme");
  const known: readonly string[] = URL_SCHEMES;
  schemes.forEach((scheme, index) => {
    if (!known.includes(scheme)) {
      report(
        `input.schemes[${index}]`,
        `${JSON.stringify(scheme)} must be one of ${URL_SCHEMES.map((name) => JSON.stringify(name)).join(", ")}`,
      );
    }
  });
}

function checkCounts(question: Question, report: (path: string, text: string) => void) {
  const { minItems, maxItems } = question;
  for (const [key, count] of [
    ["minItems", minItems],
    ["maxItems", maxItems],
  ] as const) {
    if (count === undefined) continue;
    if (!question.multiple) report(key, "is only for multiple questions");
    else if (!isCount(count)) report(key, "must be a whole number from 0");
  }
  if (!question.multiple) return;
  if (maxItems === 0) report("maxItems", "must be at least 1");
  if (minItems !== undefined && maxItems !== undefined && minItems > maxItems) {
    report("minItems", "must not be greater than maxItems");
  }
  const options = question.options?.length ?? 0;
  if (picksFromOptions(question) && !question.allowFreeText && minItems !== undefined && minItems > options) {
    report("minItems", `must not be greater than the number of options, ${options}`);
  }
  const defaults = new Set(question.defaults ?? []).size;
  const problem = defaults > 0 ? countProblem(question, defaults) : undefined;
  if (problem) report("defaults", problem.text);
}

function checkOptions(question: Question, report: (path: string, text: string) => void) {
  const options = question.options ?? [];
  if (!picksFromOptions(question)) {
    if (question.options !== undefined) {
      report("options", `are only for plain and select questions, not ${question.input?.type}`);
    }
    return;
  }
  if (options.length === 0) report("options", "must list at least one option to pick from");
  const values = new Set<string>();
  const hotkeys = new Set<string>();
  options.forEach((option, index) => {
    if (values.has(option.value)) {
      report(`options[${index}].value`, `"${option.value}" is used by another option`);
    }
    values.add(option.value);
    if (option.hotkey === undefined) return;
    if (option.hotkey === SKIP_HOTKEY) {
      report(`options[${index}].hotkey`, `"${SKIP_HOTKEY}" is reserved for skip`);
    } else if (!HOTKEY.test(option.hotkey)) {
      report(`options[${index}].hotkey`, "must be one lowercase letter or digit");
    } else if (hotkeys.has(option.hotkey)) {
      report(`options[${index}].hotkey`, `"${option.hotkey}" is used by another option`);
    }
    hotkeys.add(option.hotkey);
  });
}

function checkDefaults(
  question: Question,
  report: (path: string, text: string) => void,
  options: CheckQuestionsOptions,
) {
  const defaults = question.defaults ?? [];
  if (picksFromOptions(question) && defaults.length === 0 && !options.unpickedChoices) {
    report("defaults", "must pre-pick at least one option: the answer you would choose");
  }
  if (!question.multiple && defaults.length > 1) {
    report("defaults", `must hold one value unless the question is multiple, not ${defaults.length}`);
  }
  defaults.forEach((value, index) => {
    const canonical = coerceAnswer(question, value);
    const problem = valueProblem(question, canonical);
    if (problem) {
      report(`defaults[${index}]`, `${JSON.stringify(value)} ${problem.text}`);
    } else if (canonical !== value) {
      report(`defaults[${index}]`, `${JSON.stringify(value)} must be written ${JSON.stringify(canonical)}`);
    }
  });
}

/** How {@link checkQuestions} reads a set. */
export interface CheckQuestionsOptions {
  /**
   * Lets a question that picks from options pre-pick nothing. For a set another protocol asks
   * (an MCP form, say), whose asker may have no pick of its own: Prepick never invents one.
   * Prepick's own intakes and `ask` calls always pre-pick, so they leave this out.
   */
  unpickedChoices?: boolean;
}

/**
 * Everything wrong with a question set as defined: duplicate or reserved ids, options and
 * hotkeys, bounds and patterns, and defaults that fail their own question's rules. Empty when
 * the set can be asked.
 */
export function checkQuestions(
  questions: readonly Question[],
  options: CheckQuestionsOptions = {},
): DefinitionIssue[] {
  const issues: DefinitionIssue[] = [];
  const seen = new Set<string>();
  questions.forEach((question, index) => {
    const at = name(question, index);
    const report = (path: string, text: string) =>
      issues.push({
        ...(question.id ? { questionId: question.id } : {}),
        path: `questions[${index}]${path ? `.${path}` : ""}`,
        message: `${at}${path ? `.${path}` : ""} ${text}`,
      });
    if (RESERVED_QUESTION_IDS.has(question.id)) report("id", "is a reserved name");
    if (seen.has(question.id)) report("id", "is used by another question");
    seen.add(question.id);
    checkOptions(question, report);
    checkBounds(question, report);
    checkStep(question, report);
    checkCounts(question, report);
    checkSchemes(question, report);
    checkDefaults(question, report, options);
  });
  return issues;
}

/**
 * The question with a hotkey on every option: declared ones kept, the rest given `a`, `b`, `c`…
 * in order, skipping those taken and never `s`, which means skip.
 */
export function withHotkeys(question: Question): Question {
  if (!question.options?.some((option) => option.hotkey === undefined)) return question;
  const taken = new Set(question.options.map((option) => option.hotkey));
  const free = AUTOMATIC_HOTKEYS.filter((key) => !taken.has(key));
  return {
    ...question,
    options: question.options.map((option) => {
      if (option.hotkey !== undefined) return option;
      const hotkey = free.shift();
      return hotkey === undefined ? option : { ...option, hotkey };
    }),
  };
}
