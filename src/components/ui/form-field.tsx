import { type ReactElement, useId } from "react";
import { Slot } from "radix-ui";
import { cn } from "@/lib/cn.ts";
import { Label } from "./label.tsx";
import { RequiredMark } from "./required-mark.tsx";

type FormFieldProps = {
  label: string;
  /** The single control (Input, Textarea, Select); it receives id, aria-describedby and aria-invalid. */
  children: ReactElement;
  /** Set the control's id here rather than on the control, so the label stays linked. */
  id?: string;
  hint?: string;
  error?: string;
  required?: boolean;
  className?: string;
};

/** A label, its control, an optional hint and an error message, linked for screen readers. */
export function FormField({ label, children, id, hint, error, required = false, className }: FormFieldProps) {
  const generatedId = useId();
  const controlId = id ?? generatedId;
  const hintId = `${controlId}-hint`;
  const errorId = `${controlId}-error`;
  const describedBy = [hint ? hintId : undefined, error ? errorId : undefined].filter(Boolean).join(" ");

  return (
    <div className={cn("grid gap-2", className)}>
      <Label htmlFor={controlId}>
        {label}
        {required && <RequiredMark />}
      </Label>
      <Slot.Root
        id={controlId}
        aria-describedby={describedBy || undefined}
        aria-invalid={error ? true : undefined}
        aria-required={required || undefined}
      >
        {children}
      </Slot.Root>
      {hint && (
        <p id={hintId} className="text-xs text-muted-foreground">
          {hint}
        </p>
      )}
      {error && (
        <p id={errorId} className="text-sm text-destructive">
          {error}
        </p>
      )}
    </div>
  );
}
