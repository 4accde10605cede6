import { withHotkeys } from "@/lib/prepick/core/check-questions";
import type { Option, Question } from "@/lib/prepick/core/question";

// OpenCode's question tool and Claude's AskUserQuestion answer with option labels, offer a typed
// answer beside the options, and pre-pick nothing. Both are read here the same way.

/** One option as those protocols send it. */
export interface LabelOption {
  /** What the person reads, and what the answer carries. */
  label: string;
  /** A line explaining the choice. */
  description: string;
}

/** One question as those protocols send it, in Prepick's terms. */
export interface LabelQuestion {
  /** The question's id in the set. */
  id: string;
  /** The complete question. */
  prompt: string;
  /** The choices; none makes a question answered only in words. */
  options: readonly LabelOption[];
  /** More than one choice allowed. */
  multiple: boolean;
  /** A typed answer allowed beside the options. */
  freeText: boolean;
}

const RECOMMENDED = /\(recommended\)\s*$/i;

/**
 * The options of one question. Each value is its label; a label used by an earlier option gets
 * ` #2`, ` #3`… (never another option's label), so every value is distinct and maps back to its label.
 */
function optionsOf(options: readonly LabelOption[]): Option[] {
  const labels = new Set(options.map((option) => option.label));
  const taken = new Set<string>();
  const distinct = (label: string) => {
    if (!taken.has(label)) return label;
    // A made-up value never takes a label another option has.
    for (let count = 2; ; count += 1) {
      const value = `${label} #${count}`;
      if (!taken.has(value) && !labels.has(value)) return value;
    }
  };
  return options.map((option) => {
    const value = distinct(option.label);
    taken.add(value);
    return {
      value,
      label: option.label,
      ...(option.description ? { description: option.description } : {}),
    };
  });
}

/**
 * The Prepick question for a labelled one: a text question when it has no options; else its
 * options (values distinct, as above), free text where allowed, and the option whose label ends
 * `(Recommended)` (the convention both protocols tell the model), else the first, pre-picked.
 */
export function labelQuestion(asked: LabelQuestion): Question {
  const base = { id: asked.id, prompt: asked.prompt };
  if (asked.options.length === 0) return { ...base, input: { type: "text" } };
  const options = optionsOf(asked.options);
  const recommended = options.find((option) => RECOMMENDED.test(option.label)) ?? options[0];
  return withHotkeys({
    ...base,
    options,
    ...(asked.multiple ? { multiple: true } : {}),
    ...(asked.freeText ? { allowFreeText: true } : {}),
    defaults: recommended ? [recommended.value] : [],
  });
}

/** The labels an answer carries for a question's values: an option's label, free text as typed, each once. */
export function labelsOf(question: Question, values: readonly string[]): string[] {
  const labels = values.map(
    (value) => question.options?.find((option) => option.value === value)?.label ?? value,
  );
  return [...new Set(labels)];
}

/** The values an answer's labels stand for: the first option with that label, else free text. */
export function valuesOf(question: Question, labels: readonly string[]): string[] {
  return labels.map((label) => question.options?.find((option) => option.label === label)?.value ?? label);
}
