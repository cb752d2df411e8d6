import { CircleAlert } from "lucide-react";

/** A form's message that belongs to no single field (a lockout, a server fault); read out when it appears. */
export function FormAlert({ message }: { message: string | null | undefined }) {
  return (
    <p role="alert" className="flex items-start gap-2 text-sm font-medium text-destructive empty:hidden">
      {message && (
        <>
          <CircleAlert aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
          {message}
        </>
      )}
    </p>
  );
}
