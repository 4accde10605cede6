"use client";

import type * as React from "react";
import { Badge } from "@/components/ui/badge";
import { Checkbox } from "@/components/ui/checkbox";
import { Kbd } from "@/components/ui/kbd";
import { Label } from "@/components/ui/label";
import { RadioGroup, RadioGroupItem } from "@/components/ui/radio-group";
import { cn } from "@/lib/utils";
import { useElicitationContext, useElicitationQuestionContext } from "./elicitation-context";

/**
 * The border of every control in the form (an unchecked radio or checkbox, a text field, a
 * textarea, a select): the theme's muted text colour, which the theme keeps legible on the card,
 * where the primitives' `border-input` measures 1.26:1 (WCAG 1.4.11 asks 3:1). An invalid or
 * focused control's own border still wins.
 */
const CONTROL_BORDER = "border-muted-foreground";

/**
 * The "pre-picked" mark on the agent's own pick: beside an option, a typed field or a settled
 * answer. Its words are its children, from the set's messages (`form.prePicked`, `settled.prePicked`).
 */
function ElicitationPrePicked({ className, ...props }: React.ComponentProps<"span">) {
  return (
    <Badge
      data-slot="elicitation-pre-picked"
      variant="outline"
      className={cn("rounded-full font-normal text-muted-foreground", className)}
      {...props}
    />
  );
}

/** A key cap in the form (an option's hotkey, the keys in the hints), legible on the card. */
function ElicitationKey({ className, ...props }: React.ComponentProps<"kbd">) {
  return <Kbd className={cn("border bg-background font-mono text-foreground", className)} {...props} />;
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
  const { dir, layout } = useElicitationContext("ElicitationOptions");
  const content =
    children ?? choices.map((option) => <ElicitationOption key={option.value} value={option.value} />);
  const classes = cn("gap-1", className);
  if (state.multiple) {
    // The question's fieldset already groups and names the checkboxes.
    return (
      <div data-slot="elicitation-options" className={cn("grid", classes)} {...props}>
        {content}
      </div>
    );
  }
  const picked = state.value.find((value) => choices.some((option) => option.value === value));
  return (
    // One at a time the question's fieldset takes the focus and says the prompt, so the group is
    // unnamed and the prompt is heard once. All at once Tab lands on a radio, never on the
    // fieldset, and a reader that enters the radio group there says its name: the prompt names it.
    // The form's direction, which Radix would otherwise take for left to right (its own `dir` on
    // the group laid the options out left to right, and ArrowRight went to the next option).
    <RadioGroup
      dir={dir}
      data-slot="elicitation-options"
      aria-labelledby={layout === "all-at-once" ? ids.legend : undefined}
      aria-invalid={error !== undefined || undefined}
      value={picked ?? ""}
      onValueChange={(value) => state.setValue(value)}
      disabled={disabled}
      loop
      className={classes}
      {...props}
    >
      {content}
    </RadioGroup>
  );
}

/**
 * One option: its control, its label, its hotkey (`[a]`) and, on the agent's own pick, a
 * "pre-picked" mark. Inside {@link ElicitationOptions}.
 */
function ElicitationOption({
  value,
  className,
  onClick,
  ...props
}: React.ComponentProps<"div"> & {
  /** The option's value. */
  value: string;
}) {
  const { state, choices, error, disabled, ids, messages } =
    useElicitationQuestionContext("ElicitationOption");
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
    // biome-ignore lint/a11y/noStaticElementInteractions: a larger target for the control inside, which has the role and the keys.
    // biome-ignore lint/a11y/useKeyWithClickEvents: the control inside takes the keyboard; the row only widens the pointer's target.
    <div
      data-slot="elicitation-option"
      data-state={checked ? "checked" : "unchecked"}
      data-defaulted={prePicked ? "true" : undefined}
      // The whole row picks: a click on it that is not on the control or its label (which pick on
      // their own) goes to the control. The control keeps the keyboard, so the row needs no key
      // handler. Under a finger the row is at least 44 px tall; a mouse needs no more than its text.
      onClick={(event) => {
        onClick?.(event);
        const target = event.target as Element;
        if (event.defaultPrevented || target.closest("button, label, input")) return;
        event.currentTarget.querySelector<HTMLElement>("[data-elicitation-control]")?.click();
      }}
      className={cn(
        "flex cursor-pointer items-start gap-3 rounded-md border border-transparent px-3 py-2 transition-colors hover:bg-accent/50 has-[[data-state=checked]]:border-primary motion-reduce:transition-none pointer-coarse:min-h-11 pointer-coarse:py-2.5",
        className,
      )}
      {...props}
    >
      {option.hotkey !== undefined ? (
        // Hidden from screen readers (the control's aria-keyshortcuts says the same) and on a touch
        // screen, which has no keys to press.
        <ElicitationKey
          aria-hidden="true"
          data-slot="elicitation-hotkey"
          className="mt-px pointer-coarse:hidden"
        >
          {option.hotkey}
        </ElicitationKey>
      ) : null}
      {state.multiple ? (
        <Checkbox
          {...controlProps}
          checked={checked}
          onCheckedChange={() => state.toggle(value)}
          disabled={disabled}
          aria-invalid={error !== undefined || undefined}
          className={cn("relative z-10 mt-0.5", CONTROL_BORDER)}
        />
      ) : (
        // Above the stretched label, so the control itself is what a pointer finds on it.
        <RadioGroupItem
          {...controlProps}
          value={value}
          className={cn("relative z-10 mt-0.5", CONTROL_BORDER)}
        />
      )}
      <div className="flex min-w-0 flex-1 flex-col gap-0.5">
        {/* In a narrow container (the inbox's column) the mark goes under the label rather than
            squeezing it: a label breaks between words, and inside a word only when it must. */}
        <div className="flex flex-wrap items-center gap-x-2 gap-y-1">
          <Label htmlFor={controlId} dir="auto" className="min-w-0 cursor-pointer leading-snug">
            {option.label}
          </Label>
          {prePicked ? (
            <ElicitationPrePicked id={markId}>{messages.form.prePicked}</ElicitationPrePicked>
          ) : null}
        </div>
        {option.description !== undefined ? (
          <p id={descriptionId} dir="auto" className="text-start text-sm text-muted-foreground">
            {option.description}
          </p>
        ) : null}
      </div>
    </div>
  );
}

export { CONTROL_BORDER, ElicitationKey, ElicitationOption, ElicitationOptions, ElicitationPrePicked };
