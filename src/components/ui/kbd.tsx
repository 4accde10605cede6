import type * as React from "react";
import { cn } from "@/lib/utils";

/**
 * A key cap: a key the person can press. Its text is the foreground colour: muted text on the
 * muted fill measures 4.34:1 in the neutral theme, under WCAG AA's 4.5:1 for text this small.
 */
function Kbd({ className, ...props }: React.ComponentProps<"kbd">) {
  return (
    <kbd
      data-slot="kbd"
      className={cn(
        "pointer-events-none inline-flex h-5 w-fit min-w-5 select-none items-center justify-center gap-1 rounded-sm bg-muted px-1 font-medium font-sans text-foreground text-xs",
        "[&_svg:not([class*='size-'])]:size-3",
        className,
      )}
      {...props}
    />
  );
}

/** Keys pressed together, as one group of key caps. */
function KbdGroup({ className, ...props }: React.ComponentProps<"kbd">) {
  return <kbd data-slot="kbd-group" className={cn("inline-flex items-center gap-1", className)} {...props} />;
}

export { Kbd, KbdGroup };
