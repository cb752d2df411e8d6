import { cva, type VariantProps } from "class-variance-authority";
import type { ComponentProps } from "react";
import { Slot } from "radix-ui";

export const buttonVariants = cva(
  "inline-flex shrink-0 cursor-pointer items-center justify-center gap-2 font-medium whitespace-nowrap transition-colors duration-150 disabled:pointer-events-none disabled:opacity-50 [&_svg]:pointer-events-none [&_svg]:size-4 [&_svg]:shrink-0",
  {
    variants: {
      variant: {
        default: "bg-primary text-primary-foreground shadow-xs hover:bg-primary/90",
        accent: "bg-accent text-accent-foreground shadow-xs hover:bg-accent-soft-foreground",
        secondary: "bg-secondary text-secondary-foreground hover:bg-secondary/70",
        outline: "border border-input bg-card text-foreground hover:bg-muted",
        ghost: "text-foreground hover:bg-muted",
        "ghost-destructive": "text-destructive hover:bg-destructive/10",
        destructive: "bg-destructive text-destructive-foreground shadow-xs hover:bg-destructive/90",
        link: "rounded-md text-sm text-accent underline-offset-4 hover:underline",
      },
      size: {
        // On phones every size is at least 44 px tall (and icons as wide): a fingertip's target.
        default: "h-10 rounded-md px-4 text-sm max-sm:h-11",
        sm: "h-8 rounded-md px-3 text-[0.8125rem] max-sm:h-11",
        lg: "h-12 rounded-lg px-6 text-base",
        icon: "size-10 rounded-md text-sm max-sm:size-11",
        "icon-sm": "size-8 rounded-md text-sm max-sm:size-11",
      },
    },
    defaultVariants: { variant: "default", size: "default" },
  },
);

type ButtonProps = ComponentProps<"button"> &
  VariantProps<typeof buttonVariants> & {
    /** Renders the single child (for example a router `<Link>`) with the button's look. */
    asChild?: boolean;
  };

/**
 * `className` adds to the variant's classes (layout: width, position, margins) and is not merged
 * with them: a different look is a variant. That keeps tailwind-merge, which would be most of the
 * landing page's own script, out of its first load.
 */
export function Button({ className, variant, size, asChild = false, type, ...props }: ButtonProps) {
  // A link reads as text, so it takes no size (height, padding).
  const classes = buttonVariants({ variant, size: variant === "link" ? null : size, className });
  if (asChild) return <Slot.Root className={classes} {...props} />;
  return <button type={type ?? "button"} className={classes} {...props} />;
}
