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

type ConfirmDownloadProps = {
  /** The button that opens the confirmation. */
  trigger: ReactNode;
  title: string;
  /** What the file holds, said before it is downloaded. */
  contents: ReactNode;
  href: string;
  downloadLabel: string;
};

/**
 * Asks before a download that holds sensitive data (an account's export: Social Security and bank
 * account numbers, every document), saying what it contains; focus starts on Cancel.
 */
export function ConfirmDownload({ trigger, title, contents, href, downloadLabel }: ConfirmDownloadProps) {
  return (
    <AlertDialog>
      <AlertDialogTrigger asChild>{trigger}</AlertDialogTrigger>
      <AlertDialogContent>
        <AlertDialogHeader>
          <AlertDialogTitle>{title}</AlertDialogTitle>
          <AlertDialogDescription asChild>
            <div className="grid gap-2">{contents}</div>
          </AlertDialogDescription>
        </AlertDialogHeader>
        <AlertDialogFooter>
          <AlertDialogCancel>Cancel</AlertDialogCancel>
          <AlertDialogAction variant="default" asChild>
            <a href={href} download>
              {downloadLabel}
            </a>
          </AlertDialogAction>
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  );
}
