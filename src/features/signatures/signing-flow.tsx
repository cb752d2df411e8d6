/*
 * Signing one document (issue 35), on a phone first: agree to the ESIGN disclosure (or decline
 * with a reason), confirm who you are (a 6-digit code emailed, or the person's own authenticator),
 * then read the pages with your own fields in place, fill them, sign by typing or drawing, and
 * Sign. Each step is the server's: its answers (and its refusals, in its own words) drive the page.
 */
import { type FormEvent, lazy, Suspense, useEffect, useRef, useState } from "react";
import { CalendarPlus, CircleCheck, Download, MailCheck, MapPin, PenLine, ShieldCheck } from "lucide-react";
import { Link } from "react-router";
import { toast } from "sonner";
import { Button } from "@/components/ui/button.tsx";
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from "@/components/ui/dialog.tsx";
import { FormAlert } from "@/components/ui/form-alert.tsx";
import { FormDialog } from "@/components/ui/form-dialog.tsx";
import { FormField } from "@/components/ui/form-field.tsx";
import { Input } from "@/components/ui/input.tsx";
import { Spinner } from "@/components/ui/spinner.tsx";
import { Textarea } from "@/components/ui/textarea.tsx";
import { errorDetail } from "@/lib/api-error.ts";
import { formatCalendarDate, formatDateTime } from "@/lib/format.ts";
import { FIELD_LABELS, KIND_LABELS } from "@/lib/signature-fields.ts";
import type { ClientSignatureRequest } from "@server/domains/signatures/schemas.ts";
import { type SignatureValue, SignaturePad } from "./signature-pad.tsx";
import { ClientStatusBadge } from "./signatures-card.tsx";
import { isWaitingOn, useCheckIdentity, useConsent, useDecline, useSign, useStartIdentityCheck } from "./use-signatures.ts";

const SigningDocument = lazy(() => import("./signing-document.tsx").then((m) => ({ default: m.SigningDocument })));

type Field = ClientSignatureRequest["fields"][number];

export function SigningFlow({ request }: { request: ClientSignatureRequest }) {
  const waiting = isWaitingOn(request);
  // A Form 8879 signed at the office says so first, before any consent is asked (issue 48, item 4).
  const step = !waiting
    ? "done"
    : request.office
      ? "office"
      : !request.me.consented
        ? "consent"
        : !request.me.identity_verified
          ? "identity"
          : "sign";
  const headingRef = useRef<HTMLHeadingElement>(null);
  const first = useRef(true);

  // Each step done moves the focus to the next one's heading, so a screen reader reads where it is.
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    headingRef.current?.focus();
  }, [step]);

  return (
    <div className="grid min-w-0 gap-4">
      <header className="grid min-w-0 gap-2">
        <div className="flex flex-wrap items-center gap-2">
          <h1 className="min-w-0 text-xl font-semibold break-words [overflow-wrap:anywhere] sm:text-2xl">{request.title}</h1>
          <ClientStatusBadge request={request} />
        </div>
        <p className="text-sm text-muted-foreground">
          {KIND_LABELS[request.kind]} · {request.document_name}
          {request.due_date && ` · Due ${formatCalendarDate(request.due_date)}`}
        </p>
        {request.message && <p className="rounded-lg border bg-card p-3 text-sm whitespace-pre-line">{request.message}</p>}
        {request.signers.length > 1 && (
          <ul aria-label="Signers" className="flex flex-wrap gap-x-4 gap-y-1 text-sm">
            {request.signers.map((s) => (
              <li key={s.index}>
                {s.name}
                {s.index === request.me.index && " (you)"}:{" "}
                <span className={s.status === "signed" ? "font-medium text-accent-soft-foreground" : "text-muted-foreground"}>
                  {s.status === "signed" ? "signed" : s.status === "declined" ? "declined" : "to sign"}
                </span>
              </li>
            ))}
          </ul>
        )}
      </header>

      {step !== "done" && step !== "office" && <Steps step={step} />}

      {step === "done" && <Outcome request={request} headingRef={headingRef} />}
      {step === "office" && request.office && <OfficeStep request={request} office={request.office} headingRef={headingRef} />}
      {step === "consent" && <ConsentStep request={request} headingRef={headingRef} />}
      {step === "identity" && <IdentityStep request={request} headingRef={headingRef} />}
      {step === "sign" && <SignStep request={request} headingRef={headingRef} />}

      {waiting && <DeclineDialog request={request} />}
    </div>
  );
}

type StepProps = { request: ClientSignatureRequest; headingRef: React.RefObject<HTMLHeadingElement | null> };

function Steps({ step }: { step: "consent" | "identity" | "sign" }) {
  const steps = [
    { key: "consent", label: "Agree" },
    { key: "identity", label: "Confirm it's you" },
    { key: "sign", label: "Sign" },
  ] as const;
  const at = steps.findIndex((s) => s.key === step);
  return (
    <ol aria-label="Steps" className="grid grid-cols-3 gap-2 text-xs sm:text-sm">
      {steps.map((s, i) => (
        <li
          key={s.key}
          aria-current={i === at ? "step" : undefined}
          className={`rounded-md border-t-4 pt-1.5 ${i < at ? "border-accent text-muted-foreground" : i === at ? "border-primary font-medium" : "border-muted text-muted-foreground"}`}
        >
          {i + 1}. {s.label}
          {i < at && <span className="sr-only"> (done)</span>}
        </li>
      ))}
    </ol>
  );
}

function StepCard({ title, headingRef, children }: { title: string; headingRef: StepProps["headingRef"]; children: React.ReactNode }) {
  return (
    <section aria-labelledby="step-heading" className="grid min-w-0 gap-4 rounded-xl border bg-card p-4 sm:p-6">
      <h2 id="step-heading" ref={headingRef} tabIndex={-1} className="text-lg font-semibold outline-none">
        {title}
      </h2>
      {children}
    </section>
  );
}

/**
 * A Form 8879 without an identity-check provider (server/domains/signatures/kba.ts): signed at the
 * firm's office, where the firm checks a photo ID; the page says how from the start, with the
 * address, a booking link and the form to read before the visit.
 */
function OfficeStep({ request, office, headingRef }: StepProps & { office: NonNullable<ClientSignatureRequest["office"]> }) {
  return (
    <StepCard title="Sign this form at our office" headingRef={headingRef}>
      <p className="text-sm">
        IRS e-file rules ask us to check your identity before you sign a Form 8879, and here we do that in person. Bring a photo ID (a driver&apos;s
        license or passport) to our office, and you sign there: it takes a few minutes.
      </p>
      <div className="grid gap-1 rounded-lg border bg-muted/40 p-3 text-sm">
        <p className="flex items-start gap-2 font-medium">
          <MapPin aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
          Our office
        </p>
        <address className="not-italic break-words">{office.address}</address>
      </div>
      <div className="flex flex-wrap gap-3">
        <Button asChild variant="accent" className="w-full sm:w-fit">
          <Link to={office.booking_path}>
            <CalendarPlus aria-hidden="true" />
            Book a visit
          </Link>
        </Button>
      </div>
      <h3 className="font-medium">Read the form before you come</h3>
      <Suspense fallback={<Spinner label="Loading the document…" className="justify-center py-10" />}>
        <SigningDocument
          url={`/api/signature-requests/${request.id}/document`}
          name={request.document_name}
          fields={request.fields}
          signerIndex={request.me.index}
          shown={() => ""}
          signature={null}
          editable={false}
          onEdit={() => undefined}
          onToggle={() => undefined}
          onSignatureField={() => undefined}
        />
      </Suspense>
    </StepCard>
  );
}

function ConsentStep({ request, headingRef }: StepProps) {
  const consent = useConsent();
  const [error, setError] = useState<string | undefined>();
  const onAgree = async () => {
    setError(undefined);
    try {
      await consent.mutateAsync({ id: request.id, disclosure_version: request.disclosure.version });
    } catch (err) {
      setError(errorDetail(err) ?? "Your agreement could not be recorded: try again");
    }
  };
  const [heading, ...paragraphs] = request.disclosure.text.split(/\n\n+/);
  return (
    <StepCard title="Agree to sign electronically" headingRef={headingRef}>
      <div
        role="region"
        aria-label="Electronic records disclosure"
        tabIndex={0}
        className="grid max-h-80 gap-3 overflow-y-auto rounded-md border bg-muted/40 p-3 text-sm focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none"
      >
        <p className="font-medium">{heading}</p>
        {paragraphs.map((p, i) => (
          <p key={i}>{p}</p>
        ))}
        <p className="text-xs text-muted-foreground">Disclosure version {request.disclosure.version}</p>
      </div>
      <FormAlert message={error} />
      <Button variant="accent" className="w-full sm:w-fit" disabled={consent.isPending} onClick={() => void onAgree()}>
        <CircleCheck aria-hidden="true" />
        {consent.isPending ? "Recording…" : "I agree"}
      </Button>
    </StepCard>
  );
}

function IdentityStep({ request, headingRef }: StepProps) {
  const start = useStartIdentityCheck();
  const check = useCheckIdentity();
  const [sentTo, setSentTo] = useState<string | null>(null);
  const [code, setCode] = useState("");
  const [error, setError] = useState<string | undefined>();
  const [startError, setStartError] = useState<string | undefined>();
  const secondFactor = request.me.identity_methods.includes("second_factor");
  const byEmail = request.me.identity_methods.includes("email_code");

  if (request.me.identity_methods.includes("kba")) return <KbaStep request={request} headingRef={headingRef} />;

  const onStart = async () => {
    setStartError(undefined);
    try {
      const started = await start.mutateAsync({ id: request.id });
      setSentTo(started.sent_to);
      toast.success("Code sent");
    } catch (err) {
      setStartError(errorDetail(err) ?? "The code could not be sent: try again");
    }
  };

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    setError(undefined);
    if (!code.trim()) {
      setError("Enter the code");
      return;
    }
    try {
      await check.mutateAsync({ id: request.id, code: code.trim() });
    } catch (err) {
      setError(errorDetail(err) ?? "The code could not be checked: try again");
    }
  };

  const showForm = sentTo !== null || secondFactor;
  return (
    <StepCard title="Confirm it's you" headingRef={headingRef}>
      <p className="text-sm text-muted-foreground">
        {byEmail ? "We email you a 6-digit code for this signature." : ""}
        {secondFactor ? " You can also use a code from your authenticator app, or a backup code." : ""}
      </p>
      {sentTo && (
        <p role="status" className="flex items-start gap-2 text-sm">
          <MailCheck aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-accent" />
          We sent a code to {sentTo}. It is good for a few minutes.
        </p>
      )}
      {byEmail && (
        <Button variant={sentTo ? "outline" : "accent"} className="w-full sm:w-fit" disabled={start.isPending} onClick={() => void onStart()}>
          {start.isPending ? "Sending…" : sentTo ? "Send a new code" : "Email me a code"}
        </Button>
      )}
      <FormAlert message={startError} />
      {showForm && (
        <form noValidate onSubmit={(e) => void onSubmit(e)} className="grid gap-3 sm:max-w-sm">
          <FormField label={secondFactor && !sentTo ? "Code from your authenticator app" : "6-digit code"} error={error}>
            <Input
              value={code}
              inputMode="numeric"
              autoComplete="one-time-code"
              maxLength={64}
              onChange={(e) => setCode(e.target.value)}
              className="text-lg tracking-widest tabular-nums"
            />
          </FormField>
          <Button type="submit" className="w-full sm:w-fit" disabled={check.isPending}>
            <ShieldCheck aria-hidden="true" />
            {check.isPending ? "Checking…" : "Confirm"}
          </Button>
        </form>
      )}
    </StepCard>
  );
}

/**
 * A Form 8879 with a KBA provider configured (server/domains/signatures/kba.ts): the provider asks
 * its own questions on its own page; back here, its reference is what the server checks.
 */
function KbaStep({ request, headingRef }: StepProps) {
  const start = useStartIdentityCheck();
  const check = useCheckIdentity();
  const [started, setStarted] = useState<{ url: string; reference: string } | null>(null);
  const [error, setError] = useState<string | undefined>();
  const onStart = async () => {
    setError(undefined);
    try {
      const answer = await start.mutateAsync({ id: request.id });
      if (answer.url && answer.reference) setStarted({ url: answer.url, reference: answer.reference });
    } catch (err) {
      setError(errorDetail(err) ?? "The identity check could not be started: try again");
    }
  };
  const onDone = async () => {
    if (!started) return;
    setError(undefined);
    try {
      await check.mutateAsync({ id: request.id, code: started.reference });
    } catch (err) {
      setError(errorDetail(err) ?? "The identity check could not be confirmed: try again");
    }
  };
  return (
    <StepCard title="Confirm it's you" headingRef={headingRef}>
      <p className="text-sm text-muted-foreground">
        The IRS asks for an identity check by a third party before a Form 8879 is signed remotely: a few questions only you can answer.
      </p>
      {started ? (
        <>
          <Button asChild variant="outline" className="w-full sm:w-fit">
            <a href={started.url} target="_blank" rel="noreferrer">
              Answer the questions (opens a new tab)
            </a>
          </Button>
          <Button className="w-full sm:w-fit" disabled={check.isPending} onClick={() => void onDone()}>
            <ShieldCheck aria-hidden="true" />
            {check.isPending ? "Checking…" : "I have answered them"}
          </Button>
        </>
      ) : (
        <Button variant="accent" className="w-full sm:w-fit" disabled={start.isPending} onClick={() => void onStart()}>
          {start.isPending ? "Starting…" : "Start the identity check"}
        </Button>
      )}
      <FormAlert message={error} />
    </StepCard>
  );
}

function todayLabel(): string {
  return new Intl.DateTimeFormat(undefined, { dateStyle: "medium" }).format(new Date());
}

function initialsOf(name: string): string {
  return name
    .split(/\s+/)
    .filter(Boolean)
    .map((part) => part[0]!.toUpperCase())
    .join("");
}

function SignStep({ request, headingRef }: StepProps) {
  const sign = useSign();
  const myName = request.signers.find((s) => s.index === request.me.index)?.name ?? "";
  const [values, setValues] = useState<Record<string, string>>({});
  const [signature, setSignature] = useState<SignatureValue>(null);
  const [editing, setEditing] = useState<Field | null>(null);
  const [signatureError, setSignatureError] = useState<string | undefined>();
  const [error, setError] = useState<string | undefined>();
  const padRef = useRef<HTMLDivElement>(null);
  const mayFill = request.me.may_sign;
  const typedName = signature?.type === "typed" ? signature.text : myName;

  const shown = (field: Field): string => {
    if (field.type === "date") return todayLabel();
    if (field.type === "name") return myName;
    if (field.type === "initials") return values[field.id] ?? initialsOf(typedName);
    return values[field.id] ?? "";
  };
  const missing = request.fields.filter(
    (f) => f.required && ((f.type === "text" && !values[f.id]?.trim()) || (f.type === "checkbox" && values[f.id] !== "true")),
  );

  const goToPad = () => {
    padRef.current?.scrollIntoView({ behavior: "smooth", block: "center" });
    padRef.current?.querySelector<HTMLElement>("input:checked, input, canvas")?.focus();
  };

  const onSign = async () => {
    setError(undefined);
    setSignatureError(undefined);
    if (!signature) {
      setSignatureError("Type your name or draw your signature");
      goToPad();
      return;
    }
    const sent: Record<string, string> = {};
    for (const f of request.fields) {
      if (f.type === "checkbox") sent[f.id] = values[f.id] === "true" ? "true" : "false";
      else if ((f.type === "text" || f.type === "initials") && values[f.id]?.trim()) sent[f.id] = values[f.id]!.trim();
    }
    try {
      const signed = await sign.mutateAsync({ id: request.id, values: sent, signature });
      toast.success(signed.status === "completed" ? "Signed. The sealed document is ready." : "Signed. Thank you!");
    } catch (err) {
      // The server names each field by kind, page and id; the id means nothing to the signer.
      setError(errorDetail(err)?.replace(/\s*\([0-9a-f]{8}-[0-9a-f-]{27}\)/gi, "") ?? "Signing failed: try again");
    }
  };

  return (
    <StepCard title={mayFill ? "Review and sign" : "Waiting for your turn"} headingRef={headingRef}>
      {!mayFill && (
        <p role="note" className="text-sm">
          The signers before you sign first. We will email you when it is your turn; you can read the document meanwhile.
        </p>
      )}
      {mayFill && (
        <p className="text-sm text-muted-foreground">
          Your fields are highlighted on the pages: tap one to fill it in. The date and your name fill themselves in.
        </p>
      )}
      <Suspense fallback={<Spinner label="Loading the document…" className="justify-center py-10" />}>
        <SigningDocument
          url={`/api/signature-requests/${request.id}/document`}
          name={request.document_name}
          fields={request.fields}
          signerIndex={request.me.index}
          shown={shown}
          signature={signature}
          editable={mayFill}
          onEdit={setEditing}
          onToggle={(f) => {
            setError(undefined);
            setValues((v) => ({ ...v, [f.id]: v[f.id] === "true" ? "false" : "true" }));
          }}
          onSignatureField={goToPad}
        />
      </Suspense>
      {mayFill && (
        <>
          <div ref={padRef} className="grid min-w-0 gap-3 border-t pt-4">
            <h3 className="flex items-center gap-2 font-medium">
              <PenLine aria-hidden="true" className="size-4" />
              Your signature
            </h3>
            <SignaturePad
              name={myName}
              error={signatureError}
              onChange={(next) => {
                setError(undefined);
                setSignature(next);
                if (next) setSignatureError(undefined);
              }}
            />
          </div>
          {missing.length > 0 && (
            <p className="text-sm text-muted-foreground">
              Still to fill in: {missing.map((f) => `${FIELD_LABELS[f.type].toLowerCase()} on page ${f.page}`).join(", ")}.
            </p>
          )}
          <p className="text-xs text-muted-foreground">
            By selecting Sign, you agree that your typed or drawn signature is your legally binding signature on this document.
          </p>
          <FormAlert message={error} />
          <Button variant="accent" size="lg" className="w-full sm:w-fit" disabled={sign.isPending} onClick={() => void onSign()}>
            {sign.isPending ? "Signing…" : "Sign"}
          </Button>
        </>
      )}
      <FieldDialog
        field={editing}
        value={editing ? shown(editing) : ""}
        onClose={() => setEditing(null)}
        onSave={(field, value) => {
          setError(undefined);
          setValues((v) => ({ ...v, [field.id]: value }));
          setEditing(null);
        }}
      />
    </StepCard>
  );
}

function FieldDialog({
  field,
  value,
  onClose,
  onSave,
}: {
  field: Field | null;
  value: string;
  onClose: () => void;
  onSave: (field: Field, value: string) => void;
}) {
  return (
    <Dialog open={field !== null} onOpenChange={(open) => !open && onClose()}>
      <DialogContent>{field && <FieldForm key={field.id} field={field} value={value} onSave={onSave} onCancel={onClose} />}</DialogContent>
    </Dialog>
  );
}

function FieldForm({
  field,
  value,
  onSave,
  onCancel,
}: {
  field: Field;
  value: string;
  onSave: (field: Field, value: string) => void;
  onCancel: () => void;
}) {
  const [text, setText] = useState(value);
  const label = `${FIELD_LABELS[field.type]} (page ${field.page})`;
  return (
    <>
      <DialogHeader>
        <DialogTitle>{label}</DialogTitle>
        <DialogDescription>{field.required ? "Required." : "Optional."} What you enter here is written into the document.</DialogDescription>
      </DialogHeader>
      <form
        noValidate
        className="grid gap-4"
        onSubmit={(e) => {
          e.preventDefault();
          onSave(field, text.trim());
        }}
      >
        <FormField label={FIELD_LABELS[field.type]}>
          <Input value={text} maxLength={1000} autoFocus onChange={(e) => setText(e.target.value)} />
        </FormField>
        <div className="flex flex-wrap justify-end gap-2">
          <Button variant="outline" onClick={onCancel}>
            Cancel
          </Button>
          <Button type="submit">Done</Button>
        </div>
      </form>
    </>
  );
}

function Outcome({ request, headingRef }: StepProps) {
  const me = request.signers.find((s) => s.index === request.me.index);
  if (request.status === "completed") {
    return (
      <StepCard title="Signed and sealed" headingRef={headingRef}>
        <p className="text-sm">
          Everyone has signed{request.completed_at ? ` (completed ${formatDateTime(request.completed_at)})` : ""}. The sealed PDF carries a
          certificate page and a digital seal, so any change to it shows. A copy is in your documents, in the “Signed documents” folder.
        </p>
        <div className="flex flex-wrap gap-3">
          <Button asChild variant="accent" className="w-full sm:w-fit">
            <a href={`/api/signature-requests/${request.id}/document`} download>
              <Download aria-hidden="true" />
              Download the signed PDF
            </a>
          </Button>
          <Button asChild variant="outline" className="w-full sm:w-fit">
            <Link to="/signatures/verify">Verify a signed PDF</Link>
          </Button>
        </div>
      </StepCard>
    );
  }
  if (request.status === "voided") {
    return (
      <StepCard title="Withdrawn" headingRef={headingRef}>
        <p className="text-sm">Your firm withdrew this request: there is nothing to sign.</p>
      </StepCard>
    );
  }
  if (request.status === "declined") {
    const who = request.signers.find((s) => s.status === "declined");
    return (
      <StepCard title="Declined" headingRef={headingRef}>
        <p className="text-sm">
          {who?.index === request.me.index ? "You declined to sign. Your firm has been told." : `${who?.name ?? "A signer"} declined to sign.`}
        </p>
      </StepCard>
    );
  }
  const others = request.signers.filter((s) => s.status === "pending").map((s) => s.name);
  return (
    <StepCard title="You signed" headingRef={headingRef}>
      <p className="text-sm">
        {me?.signed_at ? `You signed on ${formatDateTime(me.signed_at)}. ` : ""}
        Waiting for {others.join(" and ") || "the other signers"} to sign. We will email you the sealed document when everyone has signed.
      </p>
    </StepCard>
  );
}

function DeclineDialog({ request }: { request: ClientSignatureRequest }) {
  const decline = useDecline();
  const [open, setOpen] = useState(false);
  const [reason, setReason] = useState("");
  const [error, setError] = useState<string | undefined>();
  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    setError(undefined);
    if (!reason.trim()) {
      setError("Say why you decline");
      return;
    }
    try {
      await decline.mutateAsync({ id: request.id, reason: reason.trim() });
      setOpen(false);
      toast.success("Declined. Your firm has been told.");
    } catch (err) {
      setError(errorDetail(err) ?? "Declining failed: try again");
    }
  };
  return (
    <div className="border-t pt-4">
      <FormDialog
        open={open}
        onOpenChange={setOpen}
        trigger={
          <Button variant="ghost-destructive" size="sm">
            Decline to sign
          </Button>
        }
        title="Decline to sign?"
        description="The request ends and your firm is told why. Declining also withdraws your consent to sign electronically for this request."
        onSubmit={(e) => void onSubmit(e)}
      >
        <FormField label="Why do you decline?" required error={error}>
          <Textarea rows={3} maxLength={2000} value={reason} onChange={(e) => setReason(e.target.value)} />
        </FormField>
        <div className="flex flex-wrap justify-end gap-2">
          <Button variant="outline" onClick={() => setOpen(false)}>
            Keep it
          </Button>
          <Button type="submit" variant="destructive" disabled={decline.isPending}>
            {decline.isPending ? "Declining…" : "Decline"}
          </Button>
        </div>
      </FormDialog>
    </div>
  );
}
