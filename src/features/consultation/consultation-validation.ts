import { type ConsultationRequestInput, consultationRequestInput, PAST_DATE, REQUIRED_FIELDS } from "@server/domains/consultation/schemas.ts";

export type ConsultationForm = {
  name: string;
  email: string;
  phone: string;
  service: string;
  preferredDate: string;
  preferredTime: string;
  message: string;
};

export const emptyConsultationForm: ConsultationForm = {
  name: "",
  email: "",
  phone: "",
  service: "",
  preferredDate: "",
  preferredTime: "",
  message: "",
};

type ConsultationValidation =
  { ok: true; input: ConsultationRequestInput } | { ok: false; message: string; field: keyof ConsultationForm | undefined };

/**
 * The spec's rule first (name, email and phone required: one message for all three), then the
 * server's own schema, so a malformed email or phone is explained before anything is sent.
 */
export function validateConsultation(form: ConsultationForm, today: string = localIsoDate(new Date())): ConsultationValidation {
  const missing = (["name", "email", "phone"] as const).find((field) => form[field].trim() === "");
  if (missing) return { ok: false, message: REQUIRED_FIELDS, field: missing };
  if (form.preferredDate !== "" && form.preferredDate < today) return { ok: false, message: PAST_DATE, field: "preferredDate" };
  const result = consultationRequestInput.safeParse(form);
  if (result.success) return { ok: true, input: result.data };
  const issue = result.error.issues[0];
  const field = issue?.path[0];
  return {
    ok: false,
    message: issue?.message ?? REQUIRED_FIELDS,
    field: typeof field === "string" && field in form ? (field as keyof ConsultationForm) : undefined,
  };
}

/** YYYY-MM-DD of `date` on the visitor's own calendar (what a date input shows and its `min` takes). */
export function localIsoDate(date: Date): string {
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}
