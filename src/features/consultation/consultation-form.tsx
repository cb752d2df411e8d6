import { type FormEvent, useState } from "react";
import { Send } from "lucide-react";
import { toast } from "sonner";
import { Button } from "@/components/ui/button.tsx";
import { FormField } from "@/components/ui/form-field.tsx";
import { Input } from "@/components/ui/input.tsx";
import { Select } from "@/components/ui/select.tsx";
import { Textarea } from "@/components/ui/textarea.tsx";
import { PREFERRED_TIME_OPTIONS, SERVICE_OPTIONS } from "../../../server/routers/consultation/schemas.ts";
import { type ConsultationForm as FormValues, emptyConsultationForm, validateConsultation } from "./consultation-validation.ts";
import { useRequestConsultation } from "./use-request-consultation.ts";

const SENT = "Consultation request sent successfully! We'll contact you within 24 hours.";
const FAILED = "Failed to send consultation request. Please try again or call us directly.";

export function ConsultationForm() {
  const [values, setValues] = useState<FormValues>(emptyConsultationForm);
  const [problem, setProblem] = useState<{ message: string; field: keyof FormValues | undefined } | null>(null);
  const request = useRequestConsultation();

  // The message is shown once, in the alert below the fields; the field at fault is marked and focused.
  const field = (name: keyof FormValues) => ({
    name,
    value: values[name],
    "aria-invalid": problem?.field === name || undefined,
    onChange: (event: { target: { value: string } }) => setValues((v) => ({ ...v, [name]: event.target.value })),
  });

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const result = validateConsultation(values);
    if (!result.ok) {
      setProblem({ message: result.message, field: result.field });
      if (result.field) document.getElementsByName(result.field)[0]?.focus();
      return;
    }
    setProblem(null);
    request.mutate(result.input, {
      onSuccess: () => {
        toast.success(SENT);
        setValues(emptyConsultationForm);
      },
      onError: () => toast.error(FAILED),
    });
  }

  return (
    <form noValidate onSubmit={submit} aria-labelledby="consultation-form-title" className="grid gap-5">
      <h3 id="consultation-form-title" className="text-xl font-semibold">Request a consultation</h3>
      <div className="grid gap-5 sm:grid-cols-2">
        <FormField id="consultation-name" label="Full Name" required className="sm:col-span-2">
          <Input autoComplete="name" {...field("name")} />
        </FormField>
        <FormField id="consultation-email" label="Email" required>
          <Input type="email" autoComplete="email" {...field("email")} />
        </FormField>
        <FormField id="consultation-phone" label="Phone" required>
          <Input type="tel" autoComplete="tel" {...field("phone")} />
        </FormField>
        <FormField id="consultation-service" label="Service" className="sm:col-span-2">
          <Select {...field("service")}>
            <option value="">Select a service</option>
            {SERVICE_OPTIONS.map((option) => (
              <option key={option.value} value={option.value}>
                {option.label}
              </option>
            ))}
          </Select>
        </FormField>
        <FormField id="consultation-date" label="Preferred Date">
          <Input type="date" {...field("preferredDate")} />
        </FormField>
        <FormField id="consultation-time" label="Preferred Time">
          <Select {...field("preferredTime")}>
            <option value="">Select a time</option>
            {PREFERRED_TIME_OPTIONS.map((option) => (
              <option key={option.value} value={option.value}>
                {option.label}
              </option>
            ))}
          </Select>
        </FormField>
        <FormField id="consultation-message" label="Message" className="sm:col-span-2">
          <Textarea placeholder="Tell us about your business and what you need help with" {...field("message")} />
        </FormField>
      </div>
      <p role="alert" className="text-sm font-medium text-destructive empty:hidden">
        {problem?.message}
      </p>
      <div className="flex flex-col items-start gap-3 sm:flex-row sm:items-center sm:justify-between">
        <Button type="submit" variant="accent" size="lg" disabled={request.isPending} className="w-full sm:w-auto">
          <Send />
          {request.isPending ? "Sending Request..." : "Schedule Consultation"}
        </Button>
        <p className="text-sm text-muted-foreground">We'll contact you within 24 hours.</p>
      </div>
    </form>
  );
}
