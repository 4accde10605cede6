"use client";

import * as CheckboxPrimitive from "@radix-ui/react-checkbox";
import * as RadioGroupPrimitive from "@radix-ui/react-radio-group";
import type * as React from "react";
import { cn } from "@/lib/utils";
import { useElicitationQuestionContext } from "./elicitation-context";

const controlClasses =
  "peer mt-0.5 size-4 shrink-0 border border-input shadow-xs outline-none transition-[color,box-shadow] focus-visible:border-ring focus-visible:ring-[3px] focus-visible:ring-ring/50 disabled:cursor-not-allowed aria-invalid:border-destructive aria-invalid:ring-destructive/20 motion-reduce:transition-none dark:bg-input/30 dark:aria-invalid:ring-destructive/40";

/** The look of a key cap: an option's hotkey, and the keys in the hints. */
const kbdClasses =
  "inline-flex h-5 min-w-5 items-center justify-center rounded-sm border bg-background px-1 font-mono text-xs text-foreground";

/** The "pre-picked" mark on the agent's own pick: beside an option, a typed field or a settled answer. */
function ElicitationPrePicked({ className, ...props }: React.ComponentProps<"span">) {
  return (
    <span
      data-slot="elicitation-pre-picked"
      className={cn("rounded-full border px-2 py-0.5 text-xs font-normal text-muted-foreground", className)}
      {...props}
    >
      pre-picked
    </span>
  );
}

/**
 * The options of the current question: a Radix radio group for one value, a group of Radix
 * checkboxes for several. Renders one {@link ElicitationOption} per option unless given children.
 */
function ElicitationOptions({
  className,
  children,
  ...props
}: Omit<React.ComponentProps<"div">, "dir" | "defaultValue">) {
  const { state, choices, error, disabled, ids } = useElicitationQuestionContext("ElicitationOptions");
  const content =
    children ?? choices.map((option) => <ElicitationOption key={option.value} value={option.value} />);
  const classes = cn("grid gap-1", className);
  if (state.multiple) {
    // The question's fieldset already groups and names the checkboxes.
    return (
      <div data-slot="elicitation-options" className={classes} {...props}>
        {content}
      </div>
    );
  }
  const picked = state.value.find((value) => choices.some((option) => option.value === value));
  return (
    <RadioGroupPrimitive.Root
      data-slot="elicitation-options"
      aria-labelledby={ids.legend}
      aria-invalid={error !== undefined || undefined}
      value={picked ?? ""}
      onValueChange={(value) => state.setValue(value)}
      disabled={disabled}
      loop
      className={classes}
      {...props}
    >
      {content}
    </RadioGroupPrimitive.Root>
  );
}

/**
 * One option: its control, its label, its hotkey (`[a]`) and, on the agent's own pick, a
 * "pre-picked" mark. Inside {@link ElicitationOptions}.
 */
function ElicitationOption({
  value,
  className,
  ...props
}: React.ComponentProps<"div"> & {
  /** The option's value. */
  value: string;
}) {
  const { state, choices, error, disabled, ids } = useElicitationQuestionContext("ElicitationOption");
  const position = choices.findIndex((candidate) => candidate.value === value);
  const option = choices[position];
  if (!option) throw new Error(`ElicitationOption: question "${state.id}" has no option "${value}"`);
  const controlId = `${ids.control}-${position}`;
  const markId = `${controlId}-mark`;
  const descriptionId = `${controlId}-description`;
  const checked = state.value.includes(value);
  const prePicked = state.defaults.includes(value);
  const describedBy =
    [option.description !== undefined ? descriptionId : "", prePicked ? markId : ""]
      .filter(Boolean)
      .join(" ") || undefined;
  const controlProps = {
    id: controlId,
    "data-elicitation-control": "",
    "data-value": value,
    "aria-keyshortcuts": option.hotkey,
    "aria-describedby": describedBy,
  };

  return (
    <div
      data-slot="elicitation-option"
      data-state={checked ? "checked" : "unchecked"}
      data-defaulted={prePicked ? "true" : undefined}
      className={cn(
        "flex items-start gap-3 rounded-md border border-transparent px-3 py-2 transition-colors hover:bg-accent/50 has-[[data-state=checked]]:border-ring motion-reduce:transition-none",
        className,
      )}
      {...props}
    >
      {option.hotkey !== undefined ? (
        // biome-ignore lint/a11y/noAriaHiddenOnFocusable: a kbd is not focusable; the control's aria-keyshortcuts says it.
        <kbd aria-hidden="true" data-slot="elicitation-hotkey" className={cn(kbdClasses, "mt-px")}>
          {option.hotkey}
        </kbd>
      ) : null}
      {state.multiple ? (
        <CheckboxPrimitive.Root
          {...controlProps}
          checked={checked}
          onCheckedChange={() => state.toggle(value)}
          disabled={disabled}
          aria-invalid={error !== undefined || undefined}
          className={cn(
            controlClasses,
            "rounded-[4px] data-[state=checked]:border-primary data-[state=checked]:bg-primary data-[state=checked]:text-primary-foreground dark:data-[state=checked]:bg-primary",
          )}
        >
          <CheckboxPrimitive.Indicator className="grid place-content-center text-current">
            <svg
              viewBox="0 0 24 24"
              aria-hidden="true"
              className="size-3.5"
              fill="none"
              stroke="currentColor"
            >
              <path d="M20 6 9 17l-5-5" strokeWidth="3" strokeLinecap="round" strokeLinejoin="round" />
            </svg>
          </CheckboxPrimitive.Indicator>
        </CheckboxPrimitive.Root>
      ) : (
        <RadioGroupPrimitive.Item
          {...controlProps}
          value={value}
          className={cn(controlClasses, "aspect-square rounded-full text-primary")}
        >
          <RadioGroupPrimitive.Indicator className="relative flex items-center justify-center">
            <span className="absolute top-1/2 left-1/2 size-2 -translate-x-1/2 -translate-y-1/2 rounded-full bg-primary" />
          </RadioGroupPrimitive.Indicator>
        </RadioGroupPrimitive.Item>
      )}
      <div className="flex flex-1 flex-col gap-0.5">
        <label htmlFor={controlId} className="cursor-pointer text-sm font-medium leading-snug">
          {option.label}
        </label>
        {option.description !== undefined ? (
          <p id={descriptionId} className="text-sm text-muted-foreground">
            {option.description}
          </p>
        ) : null}
      </div>
      {prePicked ? <ElicitationPrePicked id={markId} /> : null}
    </div>
  );
}

export { ElicitationOption, ElicitationOptions, ElicitationPrePicked, kbdClasses };
