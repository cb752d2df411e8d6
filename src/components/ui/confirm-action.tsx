import type { ReactNode } from "react";
import {
  AlertDialog,
  AlertDialogAction,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
  AlertDialogTrigger,
} from "./alert-dialog.tsx";

type ConfirmActionProps = {
  /** The button that opens the confirmation (usually a destructive Button). */
  trigger: ReactNode;
  title: string;
  /** The question the user answers, e.g. the spec's "Are you sure you want to delete this document?" */
  question: string;
  confirmLabel: string;
  /** The safe way out; "Cancel" unless that word names the action itself (cancelling an appointment). */
  cancelLabel?: string;
  onConfirm: () => void;
};

/** Asks before a destructive action; focus starts on Cancel and Escape cancels. */
export function ConfirmAction({ trigger, title, question, confirmLabel, cancelLabel = "Cancel", onConfirm }: ConfirmActionProps) {
  return (
    <AlertDialog>
      <AlertDialogTrigger asChild>{trigger}</AlertDialogTrigger>
      <AlertDialogContent>
        <AlertDialogHeader>
          <AlertDialogTitle>{title}</AlertDialogTitle>
          <AlertDialogDescription>{question}</AlertDialogDescription>
        </AlertDialogHeader>
        <AlertDialogFooter>
          <AlertDialogCancel>{cancelLabel}</AlertDialogCancel>
          <AlertDialogAction onClick={onConfirm}>{confirmLabel}</AlertDialogAction>
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  );
}
