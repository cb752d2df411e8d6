import type { ComponentProps } from "react";
import { X } from "lucide-react";
import { Dialog as DialogPrimitive } from "radix-ui";
import { cn } from "@/lib/cn.ts";
import { useReturnFocus } from "./return-focus.ts";

export const Dialog = DialogPrimitive.Root;
export const DialogTrigger = DialogPrimitive.Trigger;
export const DialogClose = DialogPrimitive.Close;

export const overlayClasses =
  "fixed inset-0 z-50 bg-foreground/45 backdrop-blur-[2px] data-[state=closed]:animate-fade-out data-[state=open]:animate-fade-in";

export const modalContentClasses =
  "fixed top-1/2 left-1/2 z-50 grid max-h-[calc(100dvh-2rem)] w-[calc(100%-2rem)] max-w-lg -translate-x-1/2 -translate-y-1/2 gap-4 overflow-y-auto rounded-xl border bg-popover p-6 text-popover-foreground shadow-xl data-[state=closed]:animate-pop-out data-[state=open]:animate-pop-in";

type DialogContentProps = ComponentProps<typeof DialogPrimitive.Content> & {
  /** Hides the corner close button, for dialogs that must be answered with their own buttons. */
  hideCloseButton?: boolean;
};

/**
 * A modal dialog: focus is trapped inside, Escape and the close button dismiss it, and focus
 * returns to what opened it (a trigger, or whatever had focus when it was opened from state).
 * Give it a <DialogTitle> and a <DialogDescription>.
 * aria-modal tells assistive tech (and axe) that the content behind is inert; Radix leaves it out.
 */
export function DialogContent({ className, children, hideCloseButton = false, onOpenAutoFocus, onCloseAutoFocus, ...props }: DialogContentProps) {
  const returnFocus = useReturnFocus({ onOpenAutoFocus, onCloseAutoFocus });
  return (
    <DialogPrimitive.Portal>
      <DialogPrimitive.Overlay className={overlayClasses} />
      <DialogPrimitive.Content aria-modal="true" className={cn(modalContentClasses, className)} {...props} {...returnFocus}>
        {children}
        {!hideCloseButton && (
          <DialogPrimitive.Close
            aria-label="Close"
            className="absolute top-3 right-3 inline-flex size-8 cursor-pointer items-center justify-center rounded-md text-muted-foreground transition-colors hover:bg-muted hover:text-foreground"
          >
            <X className="size-4" />
          </DialogPrimitive.Close>
        )}
      </DialogPrimitive.Content>
    </DialogPrimitive.Portal>
  );
}

export function DialogHeader({ className, ...props }: ComponentProps<"div">) {
  return <div className={cn("flex flex-col gap-1.5 pr-8", className)} {...props} />;
}

export function DialogFooter({ className, ...props }: ComponentProps<"div">) {
  return <div className={cn("flex flex-col-reverse gap-2 pt-2 sm:flex-row sm:justify-end", className)} {...props} />;
}

export const titleClasses = "text-lg leading-snug font-semibold";
export const descriptionClasses = "text-sm text-muted-foreground";

export function DialogTitle({ className, ...props }: ComponentProps<typeof DialogPrimitive.Title>) {
  return <DialogPrimitive.Title className={cn(titleClasses, className)} {...props} />;
}

export function DialogDescription({ className, ...props }: ComponentProps<typeof DialogPrimitive.Description>) {
  return <DialogPrimitive.Description className={cn(descriptionClasses, className)} {...props} />;
}
