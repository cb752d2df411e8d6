import type { FieldType, SignatureStatus } from "@server/domains/signatures/schemas.ts";

/** What each kind of signature field is called on the firm's and the signer's pages. */
export const FIELD_LABELS: Record<FieldType, string> = {
  signature: "Signature",
  initials: "Initials",
  date: "Date signed",
  name: "Name",
  text: "Text",
  checkbox: "Checkbox",
};

/**
 * One colour per signer (by index), the same on the firm's placing page and the signer's page;
 * each dark enough for its label to meet WCAG AA on white.
 */
const SIGNER_COLORS = ["#1d4ed8", "#a21caf", "#b45309", "#047857", "#be123c", "#4338ca", "#0e7490", "#4d7c0f", "#9d174d", "#57534e"];

export function signerColor(index: number): string {
  return SIGNER_COLORS[index % SIGNER_COLORS.length]!;
}

/** Where a field lies on its page's layer (fractions of the page as percentages), in its signer's colour with a light tint (`tint`: two hex digits of alpha). */
export function fieldBoxStyle(field: { x: number; y: number; width: number; height: number }, color: string, tint: string) {
  return {
    left: `${field.x * 100}%`,
    top: `${field.y * 100}%`,
    width: `${field.width * 100}%`,
    height: `${field.height * 100}%`,
    borderColor: color,
    color,
    backgroundColor: `${color}${tint}`,
  };
}

export const REQUEST_STATUS_LABELS: Record<SignatureStatus, string> = {
  sent: "Sent",
  partially_signed: "Partly signed",
  completed: "Completed",
  declined: "Declined",
  voided: "Voided",
};

export const KIND_LABELS = { engagement_letter: "Engagement letter", form_8879: "Form 8879", other: "Other" } as const;
