import type * as React from "react";
import { Badge } from "@/components/ui/badge";
import { cn } from "@/lib/utils";

/** "1 call waits" / "3 calls wait": what the count says to a screen reader. */
function waitingSentence(count: number): string {
  if (count === 0) return "Nothing waits for you";
  return count === 1 ? "1 call waits for you" : `${count} calls wait for you`;
}

/**
 * How many calls wait for the person, for a header or a button: a badge while anything waits
 * (never a zero badge), and a polite live region that says the new count when it changes.
 */
function InboxCount({
  count,
  describe = waitingSentence,
  className,
  ...props
}: Omit<React.ComponentProps<"span">, "children"> & {
  /** How many calls wait (`usePendingCalls().count`). */
  count: number;
  /** The sentence a screen reader hears for a count. */
  describe?: (count: number) => string;
}) {
  return (
    <span data-slot="inbox-count" data-count={count} className={cn("inline-flex", className)} {...props}>
      {count > 0 ? (
        <Badge aria-hidden="true" className="min-w-5 rounded-full px-1.5 tabular-nums">
          {count}
        </Badge>
      ) : null}
      <span role="status" aria-live="polite" className="sr-only">
        {describe(count)}
      </span>
    </span>
  );
}

export { InboxCount, waitingSentence };
