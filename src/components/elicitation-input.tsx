"use client";

import * as React from "react";
import { coerceAnswer } from "@/lib/prepick/core/coerce-answer";
import type { Question } from "@/lib/prepick/core/question";
import { cn } from "@/lib/utils";
import { useElicitationQuestionContext } from "./elicitation-context";

const fieldClasses =
  "flex w-full min-w-0 rounded-md border border-input bg-transparent px-3 py-1 text-base shadow-xs outline-none transition-[color,box-shadow] placeholder:text-muted-foreground focus-visible:border-ring focus-visible:ring-[3px] focus-visible:ring-ring/50 disabled:cursor-not-allowed aria-invalid:border-destructive aria-invalid:ring-destructive/20 motion-reduce:transition-none md:text-sm dark:bg-input/30 dark:aria-invalid:ring-destructive/40";

/**
 * What the field shows: the person's own characters while they type (`1.` on the way to `1.5`),
 * replaced by the stored value only when that changes to something the draft does not mean
 * (a reset, a settle, a hotkey elsewhere).
 */
function useDraft(question: Question, canonical: string): [string, (text: string) => void] {
  const [draft, setDraft] = React.useState(canonical);
  const [seen, setSeen] = React.useState(canonical);
  if (seen !== canonical) {
    setSeen(canonical);
    if (coerceAnswer(question, draft) !== canonical) setDraft(canonical);
  }
  return [draft, setDraft];
}

/** A bound as a native attribute, for the number and date pickers (text lengths are left to the rules). */
function bound(question: Question, key: "min" | "max"): string | undefined {
  const type = question.input?.type;
  const value = question.input?.[key];
  if (value === undefined || (type !== "number" && type !== "date")) return undefined;
  return String(value);
}

/**
 * The native field of a typed question: an `<input>` of the matching type, a `<textarea>`, or a
 * `<select>`. Labelled by the question's legend and described by its description and error.
 */
function ElicitationInput({ className, ...props }: React.ComponentProps<"input">) {
  const { state, question, error, disabled, ids, describedBy } =
    useElicitationQuestionContext("ElicitationInput");
  const [draft, setDraft] = useDraft(question, state.value[0] ?? "");
  const type = question.input?.type ?? "text";
  const shared = {
    id: ids.control,
    "data-elicitation-control": "",
    "data-slot": "elicitation-input",
    "data-input-type": type,
    "aria-labelledby": ids.legend,
    "aria-describedby": describedBy,
    "aria-invalid": error !== undefined || undefined,
    "aria-required": state.required || undefined,
    disabled,
  };

  if (type === "select") {
    // A value written in the free-text field (where allowed) is not an option: the select shows
    // the options picked, and picking keeps a multiple question's written value.
    const optionValues = state.options.map((option) => option.value);
    const picked = state.value.filter((value) => optionValues.includes(value));
    const written = state.value.filter((value) => !optionValues.includes(value));
    return (
      <select
        {...shared}
        multiple={state.multiple}
        value={state.multiple ? picked : (picked[0] ?? "")}
        onChange={(event) =>
          state.setValue(
            state.multiple
              ? [...[...event.currentTarget.selectedOptions].map((o) => o.value), ...written]
              : event.currentTarget.value,
          )
        }
        className={cn(fieldClasses, state.multiple ? "py-2" : "h-9", className)}
      >
        {state.multiple || picked.length > 0 ? null : <option value="">Choose…</option>}
        {state.options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
            {state.defaults.includes(option.value) ? " (pre-picked)" : ""}
          </option>
        ))}
      </select>
    );
  }

  const onChange = (text: string) => {
    setDraft(text);
    state.setValue(text);
  };

  if (type === "textarea") {
    return (
      <textarea
        {...shared}
        rows={3}
        placeholder={question.input?.placeholder}
        value={draft}
        onChange={(event) => onChange(event.currentTarget.value)}
        className={cn(fieldClasses, "field-sizing-content min-h-16 py-2", className)}
      />
    );
  }

  return (
    <input
      {...shared}
      type={type === "boolean" ? "text" : type}
      inputMode={type === "number" ? "decimal" : undefined}
      step={type === "number" ? "any" : undefined}
      min={bound(question, "min")}
      max={bound(question, "max")}
      placeholder={question.input?.placeholder}
      value={draft}
      onChange={(event) => onChange(event.currentTarget.value)}
      className={cn(fieldClasses, "h-9", className)}
      {...props}
    />
  );
}

/**
 * A field for an answer that is not among the options, on a question that allows free text.
 * Typing replaces the picked option (or, on a multiple-choice question, adds to the picked ones).
 */
function ElicitationFreeText({ className, ...props }: React.ComponentProps<"input">) {
  const { state, question, error, disabled, ids } = useElicitationQuestionContext("ElicitationFreeText");
  const optionValues = state.options.map((option) => option.value);
  const custom = state.value.find((value) => !optionValues.includes(value)) ?? "";
  const [draft, setDraft] = useDraft(question, custom);
  const fieldId = `${ids.control}-free-text`;
  return (
    <div data-slot="elicitation-free-text" className="flex flex-col gap-1.5 px-3">
      <label htmlFor={fieldId} className="text-sm text-muted-foreground">
        Or write your own answer
      </label>
      <input
        id={fieldId}
        type="text"
        data-elicitation-control=""
        aria-invalid={(error !== undefined && custom !== "") || undefined}
        aria-describedby={error !== undefined ? ids.error : undefined}
        disabled={disabled}
        value={draft}
        placeholder={question.input?.placeholder}
        onChange={(event) => {
          const text = event.currentTarget.value;
          setDraft(text);
          const picked = state.multiple ? state.value.filter((value) => optionValues.includes(value)) : [];
          state.setValue(text.trim() === "" ? picked : [...picked, text]);
        }}
        className={cn(fieldClasses, "h-9", className)}
        {...props}
      />
    </div>
  );
}

export { ElicitationFreeText, ElicitationInput };
