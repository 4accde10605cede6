"use client";

import * as React from "react";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { NativeSelect, NativeSelectOption } from "@/components/ui/native-select";
import { Textarea } from "@/components/ui/textarea";
import { coerceAnswer } from "@/lib/prepick/core/coerce-answer";
import type { Question } from "@/lib/prepick/core/question";
import { cn } from "@/lib/utils";
import { useElicitationQuestionContext } from "./elicitation-context";
import { CONTROL_BORDER } from "./elicitation-option";

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

/** The native input type of a one-line field: a local date and time is `datetime-local`. */
function nativeType(type: string): React.HTMLInputTypeAttribute {
  if (type === "boolean") return "text";
  return type === "datetime" ? "datetime-local" : type;
}

/** A bound as a native attribute, for the number and date pickers (text lengths are left to the rules). */
function bound(question: Question, key: "min" | "max"): string | undefined {
  const type = question.input?.type;
  const value = question.input?.[key];
  if (value === undefined || (type !== "number" && type !== "date" && type !== "datetime")) return undefined;
  return String(value);
}

/**
 * The step a number field offers: the question's own (its arrows then move by it, and the browser
 * flags a value off the step), or any number.
 */
function numberStep(question: Question): string {
  const step = question.input?.step;
  return step !== undefined && Number.isFinite(step) && step > 0 ? String(step) : "any";
}

/**
 * The phone keyboard for a number: digits alone where only whole numbers from 0 up are allowed
 * (it has no minus sign or decimal point), else the one with a decimal point.
 */
function numberKeyboard(question: Question): "numeric" | "decimal" {
  const { step, min } = question.input ?? {};
  const wholeFromZero =
    Number.isInteger(step) && typeof min === "number" && Number.isInteger(min) && min >= 0;
  return wholeFromZero ? "numeric" : "decimal";
}

/** The typed fields whose values read left to right whatever the page's direction. */
const LEFT_TO_RIGHT = new Set(["email", "url", "number", "date", "datetime"]);

/**
 * The field of a typed question, built on the app's own `Input`, `Textarea` and `NativeSelect`: an
 * input of the matching native type, a textarea, or a select. Labelled by the question's legend
 * and described by its description and error.
 */
function ElicitationInput({ className, ...props }: React.ComponentProps<"input">) {
  const { state, question, error, disabled, ids, describedBy, messages } =
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
      <NativeSelect
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
        // A list box shows its options, so it takes their height and needs no chevron's room.
        className={cn(CONTROL_BORDER, state.multiple && "h-auto pe-3", className)}
      >
        {state.multiple || picked.length > 0 ? null : (
          <NativeSelectOption value="">{messages.form.choose}</NativeSelectOption>
        )}
        {state.options.map((option) => (
          <NativeSelectOption key={option.value} value={option.value}>
            {state.defaults.includes(option.value)
              ? messages.form.prePickedOption(option.label)
              : option.label}
          </NativeSelectOption>
        ))}
      </NativeSelect>
    );
  }

  const onChange = (text: string) => {
    setDraft(text);
    state.setValue(text);
  };

  if (type === "textarea") {
    return (
      <Textarea
        {...shared}
        dir="auto"
        rows={3}
        placeholder={question.input?.placeholder}
        value={draft}
        onChange={(event) => onChange(event.currentTarget.value)}
        className={cn(CONTROL_BORDER, className)}
      />
    );
  }

  return (
    <Input
      {...shared}
      // An address or a number reads left to right in any page: "ada@" stays "ada@" in Arabic.
      dir={LEFT_TO_RIGHT.has(type) ? "ltr" : "auto"}
      type={nativeType(type)}
      inputMode={type === "number" ? numberKeyboard(question) : undefined}
      step={type === "number" ? numberStep(question) : undefined}
      min={bound(question, "min")}
      max={bound(question, "max")}
      placeholder={question.input?.placeholder}
      value={draft}
      onChange={(event) => onChange(event.currentTarget.value)}
      className={cn(CONTROL_BORDER, className)}
      {...props}
    />
  );
}

/**
 * A field for an answer that is not among the options, on a question that allows free text.
 * Typing replaces the picked option (or, on a multiple-choice question, adds to the picked ones).
 */
function ElicitationFreeText({ className, ...props }: React.ComponentProps<"input">) {
  const { state, question, error, disabled, ids, messages } =
    useElicitationQuestionContext("ElicitationFreeText");
  const optionValues = state.options.map((option) => option.value);
  const custom = state.value.find((value) => !optionValues.includes(value)) ?? "";
  const [draft, setDraft] = useDraft(question, custom);
  const fieldId = `${ids.control}-free-text`;
  return (
    <div data-slot="elicitation-free-text" className="flex flex-col gap-1.5 px-3">
      <Label htmlFor={fieldId} className="font-normal text-muted-foreground">
        {messages.form.freeText}
      </Label>
      <Input
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
        className={cn(CONTROL_BORDER, className)}
        {...props}
      />
    </div>
  );
}

export { ElicitationFreeText, ElicitationInput };
