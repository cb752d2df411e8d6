// Organizers (issue 36; docs/decisions.md, "Organizers"): the one zod schema of a template (sections
// of questions), the inputs of the firm's and the client's paths, and their answers' shapes. How an
// answer is checked against its question, and which questions are visible, is rules.ts.
import { z } from "zod";
import { idSchema, nameText } from "../shared-schemas.ts";

export const ORGANIZER_NOT_FOUND = "Organizer not found";
export const TEMPLATE_NOT_FOUND = "Organizer template not found";
export const QUESTION_NOT_FOUND = "Question not found";
export const NOT_A_FILE_QUESTION = "This question takes no file";
export const NOT_OPEN_FOR_ANSWERS = "This organizer is submitted; ask the firm to reopen it, or take it back to change answers";
export const NOT_SUBMITTED = "This organizer is not submitted";
export const ALREADY_SUBMITTED = "This organizer is already submitted";
export const DUE_DATE_PASSED = "Due date must be today or later";
export const ACCOUNT_NOT_FOUND = "Client account not found";
export const REQUIRED_UNANSWERED = "Answer the required questions first";
/**
 * How a save refuses an answer (issue 48: never dropped silently): `Answer not saved: <path>
 * (“<label>”): <why>`, the path as the required list names it (`id`, `group[entry].member`).
 */
export const ANSWER_NOT_SAVED = "Answer not saved";
/** A group entry that keeps the saved entry at that place as it is: `{ "$keep": 0 }` (a sensitive group's entries never reach the client). */
export const KEEP_ENTRY = "$keep";

/** At most this many accounts in one bulk send. */
export const MAX_BULK_ACCOUNTS = 500;
/** At most this many entries in one group answer ("one per employer"). */
export const MAX_GROUP_ENTRIES = 50;
export const MAX_QUESTIONS = 300;

export const QUESTION_TYPES = ["text", "long_text", "number", "money", "date", "yes_no", "choice", "multi_choice", "file", "group"] as const;

const questionId = z
  .string({ error: "A question's id must be text" })
  .regex(/^[a-z0-9][a-z0-9_-]{0,63}$/, "A question's id is 1 to 64 lowercase letters, digits, - or _, starting with a letter or digit");

/** A value a condition compares with: the answer of a text, number, money, date, yes/no or choice question. */
const conditionValue = z.union([z.string().max(500), z.number(), z.boolean()], { error: "equals must be text, a number or true/false" });

/** Shown only when question `question` (earlier in the template) equals `equals`, or (a multi_choice) includes `includes`. */
const visibleIf = z
  .strictObject({ question: questionId, equals: conditionValue.optional(), includes: z.string().max(500).optional() })
  .refine((v) => (v.equals === undefined) !== (v.includes === undefined), "visible_if takes either equals or includes");
export type VisibleIf = z.infer<typeof visibleIf>;

const label = nameText("Each question needs a label").min(1, "Each question needs a label").max(500, "A label must be at most 500 characters");
const help = z.string({ error: "help must be text" }).trim().max(2000, "help must be at most 2000 characters").optional();
const options = z
  .array(z.string().trim().min(1, "An option cannot be empty").max(200, "An option must be at most 200 characters"), {
    error: "options must be a list of text",
  })
  .min(1, "A choice question needs options")
  .max(100, "At most 100 options")
  .refine((list) => new Set(list).size === list.length, "Options must differ");

const common = {
  id: questionId,
  label,
  help,
  required: z.boolean().default(false),
  visible_if: visibleIf.optional(),
  /** Stored encrypted, shown masked to the client (bank and identity numbers). */
  sensitive: z.boolean().default(false),
};

const plainQuestion = z.strictObject({ ...common, type: z.enum(["text", "long_text", "number", "money", "date", "yes_no"]) });
const choiceQuestion = z.strictObject({ ...common, type: z.enum(["choice", "multi_choice"]), options });
const fileQuestion = z.strictObject({ ...common, type: z.literal("file") });
/** What a group holds: any question but a file or another group. */
const memberQuestion = z.discriminatedUnion("type", [plainQuestion, choiceQuestion], {
  error: "A group's question type must be text, long_text, number, money, date, yes_no, choice or multi_choice",
});
const groupQuestion = z.strictObject({
  ...common,
  type: z.literal("group"),
  /** The questions asked once per entry ("one per employer"); a condition here may name one of them (the same entry) or an earlier question. */
  questions: z.array(memberQuestion).min(1, "A group needs questions").max(50, "At most 50 questions in a group"),
  /** A required group needs at least one entry. */
  max_entries: z.number().int().min(1).max(MAX_GROUP_ENTRIES).default(MAX_GROUP_ENTRIES),
});

const question = z.discriminatedUnion("type", [plainQuestion, choiceQuestion, fileQuestion, groupQuestion], {
  error: `A question's type must be one of ${QUESTION_TYPES.join(", ")}`,
});
export type Question = z.infer<typeof question>;
export type MemberQuestion = z.infer<typeof memberQuestion>;
export type GroupQuestion = z.infer<typeof groupQuestion>;

const section = z.strictObject({
  title: nameText("Each section needs a title").min(1, "Each section needs a title").max(200, "A section's title must be at most 200 characters"),
  description: z.string().trim().max(2000, "A section's description must be at most 2000 characters").optional(),
  questions: z.array(question).min(1, "A section needs questions").max(MAX_QUESTIONS),
});

/**
 * A template: sections of questions. Question ids are unique across the template (a group's
 * questions included); a condition names a question asked before it, of a type it can compare
 * (`includes` a multi_choice; `equals` any other but a file or a group), with an option it has.
 */
export const templateSchema = z
  .strictObject({ sections: z.array(section).min(1, "A template needs a section").max(50, "At most 50 sections") })
  .superRefine((template, ctx) => {
    const ids = new Set<string>();
    // What a condition may name: a question asked before it outside any group, or one before it in its own group.
    const earlier = new Map<string, Question | MemberQuestion>();
    const check = (q: Question | MemberQuestion, path: (string | number)[], siblings: Map<string, MemberQuestion> | null) => {
      if (siblings && q.sensitive)
        ctx.addIssue({ code: "custom", message: "Mark the group sensitive, not a question in it", path: [...path, "sensitive"] });
      if (ids.has(q.id)) ctx.addIssue({ code: "custom", message: `Question id "${q.id}" is used twice`, path: [...path, "id"] });
      ids.add(q.id);
      if (q.visible_if) {
        const target = siblings?.get(q.visible_if.question) ?? earlier.get(q.visible_if.question);
        const problem = conditionProblem(q.visible_if, target);
        if (problem) ctx.addIssue({ code: "custom", message: problem, path: [...path, "visible_if"] });
      }
    };
    template.sections.forEach((s, si) =>
      s.questions.forEach((q, qi) => {
        const path = ["sections", si, "questions", qi];
        check(q, path, null);
        if (q.type === "group") {
          const members = new Map<string, MemberQuestion>();
          q.questions.forEach((m, mi) => {
            check(m, [...path, "questions", mi], members);
            members.set(m.id, m);
          });
        }
        earlier.set(q.id, q);
      }),
    );
    if (ids.size > MAX_QUESTIONS) ctx.addIssue({ code: "custom", message: `At most ${MAX_QUESTIONS} questions in a template`, path: ["sections"] });
  });
export type Template = z.infer<typeof templateSchema>;

function conditionProblem(condition: VisibleIf, target: Question | MemberQuestion | undefined): string | null {
  if (!target) return `visible_if names "${condition.question}", which is not a question asked before this one`;
  if (target.type === "file" || target.type === "group") return "visible_if cannot name a file or group question";
  if (condition.includes !== undefined) {
    if (target.type !== "multi_choice") return "visible_if includes needs a multi_choice question";
    if (!target.options.includes(condition.includes)) return `"${condition.includes}" is not an option of "${target.id}"`;
    return null;
  }
  if (target.type === "multi_choice") return "visible_if on a multi_choice question takes includes";
  if (target.type === "choice" && !target.options.includes(String(condition.equals)))
    return `"${String(condition.equals)}" is not an option of "${target.id}"`;
  if (target.type === "yes_no" && typeof condition.equals !== "boolean") return "visible_if on a yes_no question equals true or false";
  return null;
}

const templateName = nameText("Name is required").min(1, "Name is required").max(200, "Name must be at most 200 characters");

export const templateInput = z.object({ name: templateName, template: templateSchema });
export type TemplateInput = z.infer<typeof templateInput>;
export const templateChanges = z.object({ name: templateName.optional(), template: templateSchema.optional() });
export const updateTemplateInput = templateChanges.extend({ id: idSchema });
export type UpdateTemplateInput = z.infer<typeof updateTemplateInput>;

export const templateOutput = z.object({
  id: z.string(),
  name: z.string(),
  template: templateSchema,
  created_at: z.date(),
  updated_at: z.date(),
  /** Organizers sent from it (each keeps its own copy). */
  organizer_count: z.number().int(),
});
export type TemplateOutput = z.infer<typeof templateOutput>;

/** A template the portal ships (ready-templates.ts), for the firm to copy with POST /admin/organizer-templates. */
export const readyTemplateOutput = z.object({ key: z.string(), name: z.string(), template: templateSchema });

export const ORGANIZER_STATUSES = ["draft", "sent", "submitted", "reopened"] as const;
export type OrganizerStatus = (typeof ORGANIZER_STATUSES)[number];

const title = nameText("Title is required").min(1, "Title is required").max(200, "Title must be at most 200 characters");
const dueDate = z.iso.date("Due date must be a date (YYYY-MM-DD)");

/**
 * Send one organizer (`account_id`) or the same to many accounts at once (`account_ids`, at most
 * 500; each gets its own organizer, mail and trail entry; all or none). `draft: true` keeps it
 * unsent (the client does not see it) until POST /admin/organizers/:id/send.
 */
export const createOrganizerInput = z
  .object({
    account_id: idSchema.optional(),
    account_ids: z
      .array(idSchema, { error: "account_ids must be a list of account ids" })
      .min(1, "account_ids needs an account")
      .max(MAX_BULK_ACCOUNTS, `At most ${MAX_BULK_ACCOUNTS} accounts at once`)
      .optional(),
    template_id: idSchema,
    title,
    due_date: dueDate.nullish().transform((v) => v ?? null),
    draft: z.boolean().default(false),
  })
  .refine((v) => (v.account_id === undefined) !== (v.account_ids === undefined), {
    message: "Give account_id or account_ids",
    path: ["account_id"],
  });
export type CreateOrganizerInput = z.infer<typeof createOrganizerInput>;

export const adminOrganizerListInput = z.object({
  account_id: idSchema.optional(),
  template_id: idSchema.optional(),
  status: z.enum(ORGANIZER_STATUSES, { error: "Status must be draft, sent, submitted or reopened" }).optional(),
  limit: z.coerce.number().int().min(1, "limit must be 1 to 100").max(100, "limit must be 1 to 100").default(50),
  cursor: z.coerce.number().int().min(0).optional(),
});
export type AdminOrganizerListInput = z.infer<typeof adminOrganizerListInput>;

const comment = z.string({ error: "Comment must be text" }).trim().min(1, "Say what is missing").max(5000, "Comment must be at most 5000 characters");
export const reopenBody = z.object({ comment });
export const reopenInput = reopenBody.extend({ id: idSchema });

export const reviewedBody = z.object({ reviewed: z.boolean({ error: "reviewed must be true or false" }) });
export const reviewedInput = reviewedBody.extend({ id: idSchema, question_id: questionId });

/** A partial save: `{ "<question id>": value }`; null clears an answer. */
export const answersBody = z.object({
  answers: z
    .record(questionId, z.unknown(), { error: "answers must be an object of question ids and values" })
    .refine((answers) => Object.keys(answers).length <= MAX_QUESTIONS, `At most ${MAX_QUESTIONS} answers at once`),
});
export const answersInput = answersBody.extend({ id: idSchema });

const organizerSummary = {
  id: z.string(),
  account_id: z.string(),
  template_id: z.string().nullable(),
  title: z.string(),
  due_date: z.string().nullable(),
  status: z.enum(ORGANIZER_STATUSES),
  reopen_comment: z.string().nullable(),
  created_at: z.date(),
  sent_at: z.date().nullable(),
  submitted_at: z.date().nullable(),
  updated_at: z.date(),
};

const documentRef = z.object({ id: z.string(), original_filename: z.string(), file_size: z.number(), upload_date: z.date() });

/**
 * One answer as the client reads it back: a sensitive one has `value` null and `masked` ("•••• 6789")
 * (docs/decisions.md, "Organizers"); a file question's answer is its `documents`.
 */
const answerOutput = z.object({
  question_id: z.string(),
  value: z.unknown(),
  masked: z.string().nullable(),
  from_last_year: z.boolean(),
  reviewed: z.boolean(),
  version: z.number().int(),
  updated_at: z.date(),
});
export type AnswerOutput = z.infer<typeof answerOutput>;

export const clientOrganizerListItem = z.object({ ...organizerSummary, answered: z.number().int(), questions: z.number().int() });
export type ClientOrganizerListItem = z.infer<typeof clientOrganizerListItem>;

export const clientOrganizerOutput = z.object({
  ...organizerSummary,
  template: templateSchema,
  answers: z.array(answerOutput),
  documents: z.record(z.string(), z.array(documentRef)),
});
export type ClientOrganizer = z.infer<typeof clientOrganizerOutput>;

export const adminOrganizerListItem = z.object({ ...organizerSummary, client_label: z.string(), template_name: z.string().nullable() });
export type AdminOrganizerListItem = z.infer<typeof adminOrganizerListItem>;

export const adminOrganizerOutput = adminOrganizerListItem.extend({
  template: templateSchema,
  answers: z.array(answerOutput.extend({ reviewed_at: z.date().nullable(), reviewed_by_name: z.string().nullable(), sensitive: z.boolean() })),
  documents: z.record(z.string(), z.array(documentRef)),
});
export type AdminOrganizer = z.infer<typeof adminOrganizerOutput>;

/** POST /admin/organizers: the organizer for `account_id`; `{ organizers }`, one per account in order, for `account_ids`. */
export const createOrganizerOutput = z.union([adminOrganizerListItem, z.object({ organizers: z.array(adminOrganizerListItem) })]);
