import { cva, type VariantProps } from "class-variance-authority";
import { Slot } from "radix-ui";
import type * as React from "react";
import { cn } from "@/lib/utils";

/** A marker's looks: a plain line, a label between two rules, or a line with a border under it. */
const markerVariants = cva(
  "group/marker relative flex min-h-4 w-full items-center gap-2 text-muted-foreground text-sm [&_svg:not([class*='size-'])]:size-4",
  {
    variants: {
      variant: {
        default: "",
        separator:
          "before:h-px before:min-w-0 before:flex-1 before:bg-border after:h-px after:min-w-0 after:flex-1 after:bg-border",
        border: "border-border border-b pb-2",
      },
    },
  },
);

/** A note in a conversation that no one said: a status line, a date, a divider. */
function Marker({
  className,
  variant = "default",
  asChild = false,
  ...props
}: React.ComponentProps<"div"> &
  VariantProps<typeof markerVariants> & {
    /** Render the child element instead of a `<div>`, merging these props onto it. */
    asChild?: boolean;
  }) {
  const Comp = asChild ? Slot.Root : "div";
  return (
    <Comp
      data-slot="marker"
      data-variant={variant}
      className={cn(markerVariants({ variant }), className)}
      {...props}
    />
  );
}

/** A leading icon, hidden from screen readers. */
function MarkerIcon({ className, ...props }: React.ComponentProps<"span">) {
  return (
    <span
      data-slot="marker-icon"
      aria-hidden="true"
      className={cn("size-4 shrink-0 [&_svg:not([class*='size-'])]:size-4", className)}
      {...props}
    />
  );
}

/** The marker's words. */
function MarkerContent({ className, ...props }: React.ComponentProps<"span">) {
  return (
    <span
      data-slot="marker-content"
      className={cn("min-w-0 wrap-break-word group-data-[variant=separator]/marker:flex-none", className)}
      {...props}
    />
  );
}

export { Marker, MarkerContent, MarkerIcon, markerVariants };
