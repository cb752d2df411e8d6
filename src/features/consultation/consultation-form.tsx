import { type FormEvent, useEffect, useRef, useState } from "react";
import { CircleCheck, Send } from "lucide-react";
import { Button } from "@/components/ui/button.tsx";
import { FormAlert } from "@/components/ui/form-alert.tsx";
import { FormField } from "@/components/ui/form-field.tsx";
import { Input } from "@/components/ui/input.tsx";
import { Select } from "@/components/ui/select.tsx";
import { Textarea } from "@/components/ui/textarea.tsx";
import { PREFERRED_TIME_OPTIONS } from "@server/domains/consultation/schemas.ts";
import { consultationChoices, type Service } from "@server/domains/site/schemas.ts";
import { errorOf, type FormProblem, serverProblem } from "@/lib/form-problem.ts";
import { type ConsultationForm as FormValues, emptyConsultationForm, localIsoDate, validateConsultation } from "./consultation-validation.ts";
import { useRequestConsultation } from "./use-request-consultation.ts";

const SENT = "Consultation request sent successfully! We'll contact you within 24 hours.";
const FAILED = "Failed to send consultation request. Please try again or call us directly.";

type Field = keyof FormValues;
// The server's refusals that name a field ("Please enter a valid phone number", a past date).
const SERVER_FIELDS: Partial<Record<Field, RegExp>> = {
  email: /email/i,
  phone: /phone/i,
  preferredDate: /date/i,
  name: /name/i,
  service: /service/i,
};

/** The choices of Service are the firm's services offered in the form (site content), then Other. */
export function ConsultationForm({ services }: { services: Service[] }) {
  const [values, setValues] = useState<FormValues>(emptyConsultationForm);
  const [problem, setProblem] = useState<FormProblem<Field> | null>(null);
  const [sent, setSent] = useState(false);
  const request = useRequestConsultation();
  const thanksRef = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (sent) thanksRef.current?.focus();
  }, [sent]);

  const field = (name: Field) => ({
    name,
    value: values[name],
    onChange: (event: { target: { value: string } }) => setValues((v) => ({ ...v, [name]: event.target.value })),
  });

  const show = (found: FormProblem<Field>) => {
    setProblem(found);
    if (found.field) requestAnimationFrame(() => document.getElementsByName(found.field!)[0]?.focus());
  };

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const result = validateConsultation(values);
    if (!result.ok) {
      show({ message: result.message, field: result.field });
      return;
    }
    setProblem(null);
    request.mutate(result.input, {
      onSuccess: () => {
        setValues(emptyConsultationForm);
        setSent(true);
      },
      onError: (err) => show(serverProblem(err, FAILED, SERVER_FIELDS)),
    });
  }

  if (sent) {
    return (
      <div ref={thanksRef} tabIndex={-1} role="status" className="grid justify-items-start gap-4 py-6 outline-none">
        <span className="grid size-12 place-items-center rounded-full bg-accent-soft text-accent-soft-foreground">
          <CircleCheck aria-hidden="true" className="size-6" />
        </span>
        <h3 className="text-xl font-semibold">Thank you!</h3>
        <p>{SENT}</p>
        <p className="text-sm text-muted-foreground">We also sent a confirmation to your email address.</p>
        <Button variant="outline" onClick={() => setSent(false)}>
          Send another request
        </Button>
      </div>
    );
  }

  return (
    <form noValidate onSubmit={submit} aria-labelledby="consultation-form-title" className="grid gap-5">
      <h3 id="consultation-form-title" className="text-xl font-semibold">
        Request a consultation
      </h3>
      <div className="grid gap-5 sm:grid-cols-2">
        <FormField id="consultation-name" error={errorOf(problem, "name")} label="Full Name" required className="sm:col-span-2">
          <Input autoComplete="name" {...field("name")} />
        </FormField>
        <FormField id="consultation-email" error={errorOf(problem, "email")} label="Email" required>
          <Input type="email" autoComplete="email" {...field("email")} />
        </FormField>
        <FormField id="consultation-phone" error={errorOf(problem, "phone")} label="Phone" required>
          <Input type="tel" autoComplete="tel" {...field("phone")} />
        </FormField>
        <FormField id="consultation-service" error={errorOf(problem, "service")} label="Service" className="sm:col-span-2">
          <Select {...field("service")}>
            <option value="">Select a service</option>
            {consultationChoices(services).map((option) => (
              <option key={option.value} value={option.value}>
                {option.label}
              </option>
            ))}
          </Select>
        </FormField>
        <FormField id="consultation-date" error={errorOf(problem, "preferredDate")} label="Preferred Date">
          <Input type="date" min={localIsoDate(new Date())} {...field("preferredDate")} />
        </FormField>
        <FormField id="consultation-time" error={errorOf(problem, "preferredTime")} label="Preferred Time">
          <Select {...field("preferredTime")}>
            <option value="">Select a time</option>
            {PREFERRED_TIME_OPTIONS.map((option) => (
              <option key={option.value} value={option.value}>
                {option.label}
              </option>
            ))}
          </Select>
        </FormField>
        <FormField id="consultation-message" error={errorOf(problem, "message")} label="Message" className="sm:col-span-2">
          <Textarea placeholder="Tell us about your business and what you need help with" {...field("message")} />
        </FormField>
      </div>
      <FormAlert message={problem && !problem.field ? problem.message : null} />
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
