import { z } from "zod";

/** The kinds of typed input a question can ask for. */
export const INPUT_TYPES = [
  "text",
  "textarea",
  "number",
  "boolean",
  "date",
  "datetime",
  "email",
  "url",
  "select",
] as const;

/** One of {@link INPUT_TYPES}. */
export type InputType = (typeof INPUT_TYPES)[number];

/** The hotkey that always means "skip and use my picks"; never given to an option. */
export const SKIP_HOTKEY = "s";

/** One choice of a question that picks from options. */
export const OptionSchema = z.object({
  /** The opaque value stored in the answers. */
  value: z.string().min(1, "must not be empty"),
  /** What the person reads, and what the summary shows the model. */
  label: z.string().min(1, "must not be empty"),
  /** A single lowercase letter or digit; assigned a, b, c… when left out. */
  hotkey: z.string().optional(),
  /** A line under the label. */
  description: z.string().optional(),
});

/** One choice of a question that picks from options. */
export type Option = z.infer<typeof OptionSchema>;

/**
 * A bound: a number for numbers and text lengths, a `YYYY-MM-DD` string for dates, a local
 * `YYYY-MM-DDTHH:mm` for dates and times.
 */
export const BoundSchema = z.union([z.number(), z.string()]);

/** The typed input of a question: what it asks for and the rules a value must pass. */
export const InputSchema = z.object({
  /** What kind of value the question asks for. */
  type: z.enum(INPUT_TYPES),
  /** The smallest number, the shortest text, or the earliest `YYYY-MM-DD` (`YYYY-MM-DDTHH:mm`). */
  min: BoundSchema.optional(),
  /** The largest number, the longest text, or the latest `YYYY-MM-DD` (`YYYY-MM-DDTHH:mm`). */
  max: BoundSchema.optional(),
  /**
   * On a number question, the distance between allowed numbers, counted from `min` (or 0):
   * `1` takes whole numbers, `0.5` halves.
   */
  step: z
    .number()
    .optional()
    .describe(
      "Number questions only: the distance between allowed numbers from min (or 0); 1 for whole numbers.",
    ),
  /** On a url question, the schemes an answer may use: `http`, `https`, `mailto`; http and https when left out. */
  schemes: z
    .array(z.string())
    .optional()
    .describe(
      "Url questions only: the schemes allowed, any of http, https and mailto; http and https if left out.",
    ),
  /** A regular expression the whole value must match (RE2 syntax, linear time). */
  pattern: z.string().optional(),
  /** When true, the question needs an answer or a default. */
  required: z.boolean().optional(),
  /** Hint text shown in an empty field. */
  placeholder: z.string().optional(),
});

/** The typed input of a question. */
export type QuestionInput = z.infer<typeof InputSchema>;

/** One question of an intake or of a model's `ask` call. */
export const QuestionSchema = z.object({
  /** Unique within its set; the key of the answers. */
  id: z.string().min(1, "must not be empty"),
  /** The question itself, one line. */
  prompt: z.string().min(1, "must not be empty"),
  /** A line of help under the prompt. */
  description: z.string().optional(),
  /** The choices, for a plain or `select` question. */
  options: z.array(OptionSchema).optional(),
  /** Allows more than one value. */
  multiple: z.boolean().optional(),
  /** On a `multiple` question, the fewest values an answer may hold. */
  minItems: z.number().optional(),
  /** On a `multiple` question, the most values an answer may hold. */
  maxItems: z.number().optional(),
  /** Accepts a value that is not among the options. */
  allowFreeText: z.boolean().optional(),
  /** Makes the question ask for a typed value instead of (or, for `select`, beside) options. */
  input: InputSchema.optional(),
  /** The pre-picked answer: what the agent would choose. */
  defaults: z.array(z.string()).optional(),
});

/** One question of an intake or of a model's `ask` call. */
export type Question = z.infer<typeof QuestionSchema>;

/** Where a question set came from. */
export type ElicitationSource = "intake" | "ask";

/** The `request` of an elicitation frame: what the person is asked. */
export const ElicitationRequestSchema = z.object({
  /** Said once above the questions. */
  preamble: z.string().optional(),
  /** The questions, with hotkeys assigned. */
  questions: z.array(QuestionSchema),
  /** Whether a configured intake or the model's `ask` call posted the set. */
  source: z.enum(["intake", "ask"]).optional(),
});

/** The `request` of an elicitation frame. */
export type ElicitationRequest = z.infer<typeof ElicitationRequestSchema>;

/** A person's answers: question id to values, each in its canonical string form. */
export type Answers = Record<string, string[]>;

/** A settled question set: what the row stores as output and the model reads back. */
export const ElicitationOutcomeSchema = z.object({
  /** Every question's final values (defaults filled in, unusable values dropped). */
  answers: z.record(z.string(), z.array(z.string())),
  /** True when the person skipped and left the choices to the agent. */
  skipped: z.boolean(),
  /** The ids of the questions filled from their own defaults, untouched by the person. */
  defaulted: z.array(z.string()),
  /** What the model reads back: prompts and the chosen labels. */
  summary: z.string(),
});

/** A settled question set. */
export type ElicitationOutcome = z.infer<typeof ElicitationOutcomeSchema>;

/** Whether a question picks from its options (a plain question or a `select`). */
export function picksFromOptions(question: Question): boolean {
  return question.input === undefined || question.input.type === "select";
}
