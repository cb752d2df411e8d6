import type { ComponentProps } from "react";
import type { VariantProps } from "class-variance-authority";
import { AlertDialog as AlertDialogPrimitive } from "radix-ui";
import { cn } from "@/lib/cn.ts";
import { buttonVariants } from "./button.tsx";
import { DialogFooter, DialogHeader, descriptionClasses, modalContentClasses, overlayClasses, titleClasses } from "./dialog.tsx";
import { useReturnFocus } from "./return-focus.ts";

export const AlertDialog = AlertDialogPrimitive.Root;
export const AlertDialogTrigger = AlertDialogPrimitive.Trigger;
export const AlertDialogHeader = DialogHeader;
export const AlertDialogFooter = DialogFooter;

/** A confirmation: it does not close on an outside click, focus starts on Cancel and returns to the opener. */
export function AlertDialogContent({ className, onOpenAutoFocus, onCloseAutoFocus, ...props }: ComponentProps<typeof AlertDialogPrimitive.Content>) {
  const returnFocus = useReturnFocus({ onOpenAutoFocus, onCloseAutoFocus });
  return (
    <AlertDialogPrimitive.Portal>
      <AlertDialogPrimitive.Overlay className={overlayClasses} />
      <AlertDialogPrimitive.Content aria-modal="true" className={cn(modalContentClasses, "max-w-md", className)} {...props} {...returnFocus} />
    </AlertDialogPrimitive.Portal>
  );
}

export function AlertDialogTitle({ className, ...props }: ComponentProps<typeof AlertDialogPrimitive.Title>) {
  return <AlertDialogPrimitive.Title className={cn(titleClasses, className)} {...props} />;
}

export function AlertDialogDescription({ className, ...props }: ComponentProps<typeof AlertDialogPrimitive.Description>) {
  return <AlertDialogPrimitive.Description className={cn(descriptionClasses, className)} {...props} />;
}

type AlertDialogActionProps = ComponentProps<typeof AlertDialogPrimitive.Action> & Pick<VariantProps<typeof buttonVariants>, "variant">;

/** The confirming button; destructive by default since confirmations here guard deletions. */
export function AlertDialogAction({ className, variant = "destructive", ...props }: AlertDialogActionProps) {
  return <AlertDialogPrimitive.Action className={cn(buttonVariants({ variant }), className)} {...props} />;
}

export function AlertDialogCancel({ className, ...props }: ComponentProps<typeof AlertDialogPrimitive.Cancel>) {
  return <AlertDialogPrimitive.Cancel className={cn(buttonVariants({ variant: "outline" }), className)} {...props} />;
}
