"use client";

import * as React from "react";
import { Button } from "@/components/ui/button";
import type { ElicitationBlock } from "@/hooks/transcript-types";
import { useDeadline } from "@/hooks/use-deadline";
import { useElicitationSelector } from "@/hooks/use-elicitation";
import { cn } from "@/lib/utils";
import { useElicitationContext } from "./elicitation-context";
import { type ElicitationKeyTarget, elicitationKeyTarget } from "./elicitation-keys";
import { ElicitationKey } from "./elicitation-option";

/**
 * Whether a skip leaves some question to the agent (nothing pre-picked for it): Skip then says the
 * agent decides, not that its picks stand, since for that question it has none.
 */
function useSkipLeavesToAgent(block: ElicitationBlock): boolean {
  return useElicitationSelector(block, (snapshot) => snapshot.leftToAgent.length > 0);
}

/**
 * Back (one at a time, after the first question), Next or Confirm, and Skip (the agent's picks
 * stand; where some question has none, "Skip: let the agent decide").
 * Confirm submits only what the person touched; the server fills the rest from the defaults.
 */
function ElicitationActions({ className, children, ...props }: React.ComponentProps<"div">) {
  const { block, layout, index, busy, checking, answer, skip, previous, skipAll } =
    useElicitationContext("ElicitationActions");
  const last = layout === "all-at-once" || index >= block.questions.length - 1;
  const toAgent = useSkipLeavesToAgent(block);
  if (skip.status === "confirming") return <ElicitationSkipConfirm className={className} />;
  const { form } = block.messages;
  return (
    <div
      data-slot="elicitation-actions"
      className={cn("flex flex-wrap items-center gap-2", className)}
      {...props}
    >
      {layout === "one-at-a-time" && index > 0 ? (
        <Button type="button" variant="ghost" data-slot="elicitation-back" disabled={busy} onClick={previous}>
          {form.back}
        </Button>
      ) : null}
      <Button type="submit" data-slot="elicitation-confirm" aria-keyshortcuts="Enter" disabled={busy}>
        {answer.status === "submitting"
          ? form.sending
          : checking
            ? form.checking
            : last
              ? form.confirm
              : form.next}
      </Button>
      <Button
        type="button"
        variant="outline"
        data-slot="elicitation-skip"
        aria-keyshortcuts="s"
        disabled={busy}
        onClick={() => void skipAll()}
      >
        {skip.status === "submitting" ? form.skipping : toAgent ? form.skipToAgent : form.skip}
      </Button>
      {children}
    </div>
  );
}

/**
 * Asked once, in place of the buttons, when the person skips after changing answers: discard the
 * changes and let the agent's picks stand, or keep them. `s` again confirms, Escape keeps.
 */
function ElicitationSkipConfirm({ className, ...props }: React.ComponentProps<"fieldset">) {
  const { block, skipAll, cancelSkip } = useElicitationContext("ElicitationSkipConfirm");
  const { question, questionToAgent, discard, keep } = block.messages.skipConfirm;
  const toAgent = useSkipLeavesToAgent(block);
  return (
    <fieldset
      data-slot="elicitation-skip-confirm"
      className={cn("flex min-w-0 flex-col gap-2", className)}
      {...props}
    >
      <legend className="mb-2 text-sm">{toAgent ? questionToAgent : question}</legend>
      <div className="flex flex-wrap items-center gap-2">
        <Button type="button" data-slot="elicitation-skip-keep" onClick={cancelSkip}>
          {keep}
        </Button>
        <Button
          type="button"
          variant="outline"
          data-slot="elicitation-skip-discard"
          aria-keyshortcuts="s"
          onClick={() => void skipAll()}
        >
          {discard}
        </Button>
      </div>
    </fieldset>
  );
}

/** The kind of element the focus is on inside the hints' form; `undefined` while it is elsewhere. */
function useFocusedTarget(ref: React.RefObject<HTMLElement | null>): ElicitationKeyTarget | undefined {
  const [target, setTarget] = React.useState<ElicitationKeyTarget>();
  React.useEffect(() => {
    const form = ref.current?.closest("form");
    if (!form) return;
    const read = (element: Element | null) =>
      setTarget(element && form.contains(element) ? elicitationKeyTarget(element) : undefined);
    read(document.activeElement);
    const onFocusIn = (event: FocusEvent) => read(event.target as Element | null);
    const onFocusOut = (event: FocusEvent) => read(event.relatedTarget as Element | null);
    form.addEventListener("focusin", onFocusIn);
    form.addEventListener("focusout", onFocusOut);
    return () => {
      form.removeEventListener("focusin", onFocusIn);
      form.removeEventListener("focusout", onFocusOut);
    };
  }, [ref]);
  return target;
}

/** The modifier that sends a textarea's answer: ⌘ on Apple's systems, Ctrl elsewhere. */
function useSendModifier(): string {
  const [modifier, setModifier] = React.useState("Ctrl");
  React.useEffect(() => {
    if (/Mac|iPhone|iPad/.test(navigator.platform)) setModifier("⌘");
  }, []);
  return modifier;
}

/**
 * The keyboard hints the spec draws ("⏎ next question", "s skip"), each saying what its key does
 * where the focus is: in a textarea Enter adds a line and Ctrl/⌘+Enter goes on; in a field `s`
 * types; on a button Enter presses it. Hidden from assistive technology, which hears the same
 * from each control's `aria-keyshortcuts`.
 */
function ElicitationHints({ className, ...props }: React.ComponentProps<"p">) {
  const { block, layout, index, skip } = useElicitationContext("ElicitationHints");
  const ref = React.useRef<HTMLParagraphElement>(null);
  const target = useFocusedTarget(ref);
  const modifier = useSendModifier();
  const toAgent = useSkipLeavesToAgent(block);
  const hints = block.messages.hints;
  const last = layout === "all-at-once" || index >= block.questions.length - 1;
  const onward = last ? hints.confirm : hints.next;
  const typing = target === "field" || target === "multiline" || target === "select";
  if (skip.status === "confirming") return null;
  // A hint that does not apply where the focus is turns invisible rather than going, so the row
  // keeps its lines and the buttons under a finger do not move as the focus lands on them. A touch
  // screen has no keys to hint at: the row is not shown there.
  const enterHint = target !== "button";
  return (
    <p
      ref={ref}
      aria-hidden="true"
      data-slot="elicitation-hints"
      className={cn(
        "flex flex-wrap items-center gap-x-4 gap-y-1 text-xs text-muted-foreground pointer-coarse:hidden",
        className,
      )}
      {...props}
    >
      {target === "multiline" ? (
        <>
          <span className="inline-flex items-center gap-1.5">
            <ElicitationKey>⏎</ElicitationKey> {hints.newLine}
          </span>
          <span className="inline-flex items-center gap-1.5">
            <ElicitationKey>{modifier}</ElicitationKey>
            <ElicitationKey>⏎</ElicitationKey> {onward}
          </span>
        </>
      ) : (
        <span
          data-hidden={enterHint ? undefined : ""}
          className={cn("inline-flex items-center gap-1.5", !enterHint && "invisible")}
        >
          <ElicitationKey>⏎</ElicitationKey> {onward}
        </span>
      )}
      <span
        data-hidden={typing ? "" : undefined}
        className={cn("inline-flex items-center gap-1.5", typing && "invisible")}
      >
        <ElicitationKey>s</ElicitationKey> {toAgent ? hints.skipToAgent : hints.skip}
      </span>
    </p>
  );
}

/** The status of the whole form: what failed and a Retry, or a refusal no question can show. */
function ElicitationStatus({ className, ...props }: React.ComponentProps<"div">) {
  const { block, busy, retry, answer } = useElicitationContext("ElicitationStatus");
  const deadline = useDeadline(block.expiresAt, block.messages.locale);
  const error = useElicitationSelector(block, (snapshot) => snapshot.error);
  // Past the deadline, a refusal is the deadline's: the line above says why, in the page's
  // language; the transport's own words (an AG-UI client's "expired at …") stay on `answer.error`.
  const expired = deadline?.expired === true && answer.status === "rejected" && answer.issues.length === 0;
  const message = expired ? block.messages.status.refused("") : error;
  const retryable = useElicitationSelector(block, (snapshot) => snapshot.canRetry);
  if (message === undefined) return null;
  return (
    <div
      role="alert"
      tabIndex={-1}
      data-slot="elicitation-status"
      className={cn(
        "flex flex-wrap items-center justify-between gap-3 rounded-md border border-destructive/50 px-3 py-2 text-sm text-destructive outline-none",
        className,
      )}
      {...props}
    >
      <span className="min-w-0">{message}</span>
      {retryable ? (
        <Button
          type="button"
          variant="outline"
          data-slot="elicitation-retry"
          disabled={busy}
          onClick={() => void retry()}
        >
          {block.messages.form.retry}
        </Button>
      ) : null}
    </div>
  );
}

export { ElicitationActions, ElicitationHints, ElicitationSkipConfirm, ElicitationStatus };
