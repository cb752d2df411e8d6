import type { ComponentProps, FormEvent, ReactNode } from "react";
import type { FormProblem } from "@/lib/form-problem.ts";
import { Button } from "./button.tsx";
import { Dialog, DialogClose, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle, DialogTrigger } from "./dialog.tsx";
import { FormAlert } from "./form-alert.tsx";

type DialogFrameProps = {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** The button that opens the dialog. */
  trigger: ReactNode;
  title: ReactNode;
  description: ReactNode;
  /** Added to the dialog content's classes (its width, mostly). */
  className?: string;
  children: ReactNode;
};

/** A dialog opened by its own trigger button: its title and description, then `children`. */
export function DialogFrame({ open, onOpenChange, trigger, title, description, className, children }: DialogFrameProps) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogTrigger asChild>{trigger}</DialogTrigger>
      <DialogContent className={className}>
        <DialogHeader>
          <DialogTitle>{title}</DialogTitle>
          <DialogDescription>{description}</DialogDescription>
        </DialogHeader>
        {children}
      </DialogContent>
    </Dialog>
  );
}

type FormDialogProps = DialogFrameProps & {
  onSubmit: (event: FormEvent<HTMLFormElement>) => void;
  /** The form's accessible name. */
  formLabel?: string;
  formClassName?: string;
};

/**
 * A DialogFrame whose body is one form, validated by the dialog itself (noValidate); end `children`
 * with a FormDialogFooter.
 */
export function FormDialog({ onSubmit, formLabel, formClassName = "grid gap-4", children, ...frame }: FormDialogProps) {
  return (
    <DialogFrame {...frame}>
      <form noValidate onSubmit={onSubmit} className={formClassName} aria-label={formLabel}>
        {children}
      </form>
    </DialogFrame>
  );
}

type FormDialogFooterProps = {
  /**
   * The message that belongs to no single field, in a FormAlert above the buttons: a FormProblem
   * (shown when it names no field) or a message, null while there is none (the alert stays in the
   * page, so a message that appears is read out). Leave it out where the dialog has no such message
   * or shows it elsewhere: then there is no FormAlert.
   */
  problem?: FormProblem<string> | string | null;
  /** The request is under way: the submit button is disabled and says `pendingLabel`. */
  pending: boolean;
  submitLabel: ReactNode;
  pendingLabel?: ReactNode;
  /** Disables the submit button besides while pending (nothing chosen yet). */
  disabled?: boolean;
  variant?: ComponentProps<typeof Button>["variant"];
  /** For a dialog without a form: the submit button runs this instead of submitting. */
  onClick?: () => void;
  /** More buttons, before Cancel. */
  children?: ReactNode;
};

/** A form dialog's end: its message, Cancel (which closes the dialog) and the submit button. */
export function FormDialogFooter({
  problem,
  pending,
  submitLabel,
  pendingLabel = submitLabel,
  disabled,
  variant,
  onClick,
  children,
}: FormDialogFooterProps) {
  return (
    <>
      {problem !== undefined && <FormAlert message={formMessage(problem)} />}
      <DialogFooter>
        {children}
        <DialogClose asChild>
          <Button variant="outline">Cancel</Button>
        </DialogClose>
        <Button type={onClick ? "button" : "submit"} variant={variant} disabled={disabled || pending} onClick={onClick}>
          {pending ? pendingLabel : submitLabel}
        </Button>
      </DialogFooter>
    </>
  );
}

function formMessage(problem: FormProblem<string> | string | null): string | null {
  if (problem === null || typeof problem === "string") return problem;
  return problem.field ? null : problem.message;
}
