// Signatures (issue 35; docs/decisions.md, "Signatures"): the firm's request (a PDF of a client
// account, its signers among the account's people, fields placed as fractions of a page) and the
// signer's steps: consent to the ESIGN disclosure, an identity check, then the signature.
import { z } from "zod";
import { idSchema, nameText } from "../shared-schemas.ts";

export const SIGNATURE_KINDS = ["engagement_letter", "form_8879", "other"] as const;
export const SIGNATURE_STATUSES = ["sent", "partially_signed", "completed", "declined", "voided"] as const;
export const FIELD_TYPES = ["signature", "initials", "date", "name", "text", "checkbox"] as const;
export const SIGNER_STATUSES = ["pending", "signed", "declined"] as const;
export const IDENTITY_METHODS = ["email_code", "second_factor", "kba", "in_person"] as const;
export type SignatureStatus = (typeof SIGNATURE_STATUSES)[number];
export type FieldType = (typeof FIELD_TYPES)[number];

export const MAX_SIGNERS = 10;
export const MAX_FIELDS = 200;
/** A drawn signature's PNG as a data URL, at most this many characters (the JSON body's limit is 1 MB). */
export const MAX_SIGNATURE_IMAGE_CHARS = 400_000;

export const SIGNATURE_REQUEST_NOT_FOUND = "Signature request not found";
export const DOCUMENT_NOT_PDF = "Only a PDF can be sent for signature";
export const DOCUMENT_NOT_IN_ACCOUNT = "Document not found in this account";
export const SIGNER_NOT_IN_ACCOUNT = "Each signer must be one of the account's people with portal access";
export const SIGNER_INVITATION_CLOSED =
  "Each invited signer must have an open invitation to this account (resend an expired one, or invite them again)";
export const DUPLICATE_SIGNER = "A person can be a signer only once";
export const FIELD_SIGNER_UNKNOWN = "Each field's signer must be the index of one of the signers";
export const SIGNER_WITHOUT_SIGNATURE = "Each signer needs at least one signature field";
export const FIELD_PAGE_MISSING = "A field is placed on a page the PDF does not have";
export const FIELD_OFF_PAGE = "A field must lie within its page (x + width and y + height at most 1)";
export const REQUEST_CLOSED = "This request is no longer open for signing";
export const ALREADY_SIGNED = "You have already signed this request";
export const ALREADY_DECLINED = "You declined this request";
export const CONSENT_FIRST = "Agree to the electronic records disclosure first (POST /api/signature-requests/:id/consent)";
export const IDENTITY_FIRST =
  "Confirm who you are first: ask for a code (POST /api/signature-requests/:id/verify/start) and send it (POST /api/signature-requests/:id/verify)";
export const DISCLOSURE_OUTDATED = "This disclosure version is not the current one: read the current disclosure and agree to it";
export const CODE_WRONG = "That code is not right, or it has expired: ask for a new one";
export const CODE_TOO_MANY = "Too many wrong codes: ask for a new one";
export const NOT_YOUR_TURN = "It is not your turn yet: the signers before you sign first";
export const KBA_NEEDED =
  "Remote signing of a Form 8879 needs knowledge-based identity verification (IRS e-file rules), and no provider is configured: sign at the firm's office, where the firm checks your photo ID";
export const SIGNER_NOT_FOUND = "Signer not found";
export const SIGNER_DONE = "This signer has already signed or declined";
export const REMIND_NOTHING = "Nobody is waiting to sign this request";
export const REMIND_NOT_SIGNED_UP = "Everyone waiting to sign is invited and has not signed up yet: their invitation says what waits for them";

/** The ESIGN Act disclosure the signer agrees to before the first signature; a new text gets a new version. */
export const ESIGN_DISCLOSURE = {
  version: "2026-11-26",
  text: [
    "Consent to electronic records and signatures.",
    "We would like to give you documents and ask for your signature electronically. By agreeing, you consent to receive and sign these documents electronically instead of on paper.",
    "What it covers: this consent covers the documents our firm sends you for signature through this client portal (such as engagement letters and IRS Form 8879), and the records of those signatures.",
    "Paper copies: you may ask for a paper copy of any document at any time, at no charge, by writing to the firm through the portal's messages or by email; we will mail it to you.",
    "Withdrawing consent: you may withdraw this consent at any time by declining a request in the portal or by telling the firm. Withdrawing does not affect documents already signed; from then on we will send documents on paper.",
    "What you need: a device with a current web browser (Chrome, Safari, Firefox or Edge), an email address you can read, and a way to view PDF files. You can download and keep every document you sign.",
    "Your contact details: keep your email address current in the portal's account settings, so our messages about signatures reach you.",
  ].join("\n\n"),
} as const;

const title = nameText("Title is required").min(1, "Title is required").max(200, "Title must be at most 200 characters");
const fraction = (name: string) =>
  z
    .number({ error: `${name} must be a number between 0 and 1 (a fraction of the page)` })
    .min(0, `${name} must be at least 0`)
    .max(1, `${name} must be at most 1`);
const size = (name: string) =>
  z
    .number({ error: `${name} must be a number between 0 and 1 (a fraction of the page)` })
    .gt(0, `${name} must be more than 0`)
    .max(1, `${name} must be at most 1`);

export const fieldInput = z
  .object(
    {
      signer: z
        .number({ error: "A field's signer is the index of a signer (0, 1, ...)" })
        .int()
        .min(0)
        .max(MAX_SIGNERS - 1),
      type: z.enum(FIELD_TYPES, { error: "A field's type must be signature, initials, date, name, text or checkbox" }),
      page: z.number({ error: "A field's page must be a page number (from 1)" }).int().min(1, "Pages count from 1").max(10_000),
      x: fraction("x"),
      y: fraction("y"),
      width: size("width"),
      height: size("height"),
      required: z.boolean({ error: "required must be true or false" }).default(true),
    },
    { error: "Each field must be an object" },
  )
  .refine((f) => f.x + f.width <= 1 + 1e-9 && f.y + f.height <= 1 + 1e-9, { message: FIELD_OFF_PAGE });

export const createSignatureRequestInput = z.object({
  account_id: idSchema,
  document_id: idSchema,
  title,
  kind: z.enum(SIGNATURE_KINDS, { error: "kind must be engagement_letter, form_8879 or other" }),
  /**
   * The account's people by `user_id`, or someone invited to it who has not signed up yet by their
   * open invitation's `invitation_id`: their slot waits, and is theirs once they accept.
   */
  signers: z
    .array(
      z
        .object(
          { user_id: idSchema.optional(), invitation_id: idSchema.optional() },
          { error: "Each signer must be { user_id } or { invitation_id }" },
        )
        .refine((s) => (s.user_id === undefined) !== (s.invitation_id === undefined), {
          message: "Each signer must be { user_id } or { invitation_id }",
        }),
      { error: "signers must be a list of { user_id } or { invitation_id }" },
    )
    .min(1, "Name at least one signer")
    .max(MAX_SIGNERS, `At most ${MAX_SIGNERS} signers`),
  order: z.enum(["parallel", "sequential"], { error: "order must be parallel or sequential" }).default("parallel"),
  due_date: z.iso
    .date("Due date must be a date (YYYY-MM-DD)")
    .nullish()
    .transform((v) => v ?? null),
  message: z.string({ error: "message must be text" }).trim().max(5000, "message must be at most 5000 characters").default(""),
  fields: z.array(fieldInput, { error: "fields must be a list" }).min(1, "Place at least one field").max(MAX_FIELDS, `At most ${MAX_FIELDS} fields`),
});
export type CreateSignatureRequestInput = z.output<typeof createSignatureRequestInput>;

export const signatureListInput = z.object({
  account_id: idSchema.optional(),
  status: z.enum(SIGNATURE_STATUSES, { error: "status must be sent, partially_signed, completed, declined or voided" }).optional(),
});

export const voidInput = z.object({
  id: idSchema,
  reason: z.string({ error: "reason must be text" }).trim().max(1000, "reason must be at most 1000 characters").default(""),
});
export const voidBody = voidInput.omit({ id: true });

export const inPersonInput = z.object({
  id: idSchema,
  index: z.coerce
    .number({ error: "The signer's index is a number" })
    .int("The signer's index is a whole number")
    .min(0)
    .max(MAX_SIGNERS - 1),
  /** What the firm checked: the kind of photo ID (driver's license, passport...). */
  id_document: z.string({ error: "id_document must be text" }).trim().min(1, "Say which photo ID was checked").max(200),
});
export const inPersonBody = inPersonInput.omit({ id: true, index: true });

export const consentInput = z.object({ id: idSchema, disclosure_version: z.string({ error: "disclosure_version is required" }).max(100) });
export const consentBody = consentInput.omit({ id: true });

export const declineInput = z.object({
  id: idSchema,
  reason: z.string({ error: "reason is required" }).trim().min(1, "Say why you decline").max(2000, "reason must be at most 2000 characters"),
});
export const declineBody = declineInput.omit({ id: true });

export const verifyInput = z.object({
  id: idSchema,
  code: z.string({ error: "code is required" }).trim().min(1, "code is required").max(64, "code must be at most 64 characters"),
});
export const verifyBody = verifyInput.omit({ id: true });

const signatureInput = z.discriminatedUnion(
  "type",
  [
    z.object({
      type: z.literal("typed"),
      text: nameText("text is required").min(1, "Type your name to sign").max(200, "text must be at most 200 characters"),
    }),
    z.object({
      type: z.literal("drawn"),
      image: z
        .string({ error: "image is required" })
        .max(MAX_SIGNATURE_IMAGE_CHARS, "The drawn signature image is too large")
        .regex(/^data:image\/png;base64,[A-Za-z0-9+/]+={0,2}$/, "image must be a PNG as a data URL (data:image/png;base64,...)"),
    }),
  ],
  { error: 'signature must be { "type": "typed", "text" } or { "type": "drawn", "image" }' },
);

export const signInput = z.object({
  id: idSchema,
  values: z
    .record(idSchema, z.string({ error: "Each value must be text" }).max(1000, "A value must be at most 1000 characters"), {
      error: "values must map field ids to text",
    })
    .default({}),
  signature: signatureInput,
});
export const signBody = signInput.omit({ id: true });
export type SignInput = z.output<typeof signInput>;

const isoDate = z.date();

export const fieldOutput = z.object({
  id: z.string(),
  signer: z.number(),
  type: z.enum(FIELD_TYPES),
  page: z.number(),
  x: z.number(),
  y: z.number(),
  width: z.number(),
  height: z.number(),
  required: z.boolean(),
  value: z.string().nullable(),
});

const signerBase = {
  index: z.number(),
  user_id: z.string().nullable(),
  name: z.string(),
  email: z.string(),
  status: z.enum(SIGNER_STATUSES),
  viewed_at: isoDate.nullable(),
  consented_at: isoDate.nullable(),
  identity_method: z.enum(IDENTITY_METHODS).nullable(),
  identity_checked_at: isoDate.nullable(),
  signed_at: isoDate.nullable(),
  declined_at: isoDate.nullable(),
};

export const eventOutput = z.object({
  at: isoDate,
  action: z.string(),
  signer: z.number().nullable(),
  actor: z.string(),
  detail: z.record(z.string(), z.unknown()),
});

const requestBase = {
  id: z.string(),
  account_id: z.string(),
  document_id: z.string(),
  title: z.string(),
  kind: z.enum(SIGNATURE_KINDS),
  order: z.enum(["parallel", "sequential"]),
  status: z.enum(SIGNATURE_STATUSES),
  due_date: z.string().nullable(),
  message: z.string(),
  sealed_document_id: z.string().nullable(),
  created_at: isoDate,
  updated_at: isoDate,
  completed_at: isoDate.nullable(),
};

export const adminSignatureRequestOutput = z.object({
  ...requestBase,
  account_name: z.string(),
  void_reason: z.string().nullable(),
  /** Form 8879 without a KBA provider: remote signing is not possible, only in person. */
  remote_signing_note: z.string().nullable(),
  signers: z.array(
    z.object({
      ...signerBase,
      identity_result: z.string().nullable(),
      decline_reason: z.string().nullable(),
      /** Invited and not signed up yet: the slot waits for them and is theirs once they accept. */
      awaiting_sign_up: z.boolean(),
    }),
  ),
  fields: z.array(fieldOutput),
  events: z.array(eventOutput),
});
export type AdminSignatureRequest = z.infer<typeof adminSignatureRequestOutput>;

/** A reminder's answer: the request, and how many signers this reminder mailed. */
export const remindOutput = adminSignatureRequestOutput.extend({ reminded: z.number().int().min(1) });

export const adminSignatureListItem = z.object({
  ...requestBase,
  account_name: z.string(),
  signers: z.array(z.object({ index: z.number(), name: z.string(), status: z.enum(SIGNER_STATUSES), signed_at: isoDate.nullable() })),
});
export type AdminSignatureListItem = z.infer<typeof adminSignatureListItem>;

/** What a signer sees: the request, every signer's progress, and their own fields only. */
export const clientSignatureRequestOutput = z.object({
  ...requestBase,
  document_name: z.string(),
  remote_signing_note: z.string().nullable(),
  /**
   * How this request is signed when it cannot be signed remotely (a Form 8879 without a KBA provider,
   * before the firm's in-person check): at the firm's office, at this address, with a visit booked
   * in the portal's appointments (`booking_path`); null when it is signed here.
   */
  office: z.object({ address: z.string(), booking_path: z.string() }).nullable(),
  signers: z.array(z.object({ index: z.number(), name: z.string(), status: z.enum(SIGNER_STATUSES), signed_at: isoDate.nullable() })),
  me: z.object({
    index: z.number(),
    status: z.enum(SIGNER_STATUSES),
    consented: z.boolean(),
    identity_verified: z.boolean(),
    /** True when it is this signer's turn (sequential order) and the request is open. */
    may_sign: z.boolean(),
    /** How the identity check can be passed: an email code, the person's own second factor, or KBA. */
    identity_methods: z.array(z.enum(IDENTITY_METHODS)),
  }),
  fields: z.array(fieldOutput),
  disclosure: z.object({ version: z.string(), text: z.string() }),
});
export type ClientSignatureRequest = z.infer<typeof clientSignatureRequestOutput>;

/** An emailed code (sent_to: the address, masked), or a KBA provider's check (url: where the signer answers it; reference: what to send to /verify). */
export const verifyStartOutput = z.object({
  method: z.enum(["email_code", "kba"]),
  sent_to: z.string().nullable(),
  url: z.string().nullable(),
  reference: z.string().nullable(),
  expires_at: isoDate,
});
export const verifyOutput = z.object({ identity_method: z.enum(IDENTITY_METHODS), identity_checked_at: isoDate });

export const sealVerificationOutput = z.object({
  /** A PDF sealed here, unchanged since. */
  valid: z.boolean(),
  /** Sealed by this portal (its hash is on record), changed or not. */
  sealed_here: z.boolean(),
  signature_intact: z.boolean(),
  detail: z.string(),
  request: z
    .object({
      id: z.string(),
      title: z.string(),
      kind: z.enum(SIGNATURE_KINDS),
      completed_at: isoDate.nullable(),
      signers: z.array(
        z.object({ name: z.string(), email: z.string(), signed_at: isoDate.nullable(), identity_method: z.enum(IDENTITY_METHODS).nullable() }),
      ),
    })
    .nullable(),
});
export type SealVerification = z.infer<typeof sealVerificationOutput>;
