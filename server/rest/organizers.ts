// Organizers over REST (issue 36): the firm's templates, sending, its view of the answers with a
// reviewed mark per answer, reopen, and two downloads (one organizer as PDF, one template's
// answers across accounts as CSV); the client's list, read, partial save, submit and take back.
// A file question's answer is the ordinary upload with `organizer_id` and `question_id`.
import type { RequestHandler } from "express";
import { z } from "zod";
import { createCaller } from "../domains/_app.ts";
import { organizerPdf } from "../domains/organizers/pdf.ts";
import { organizersExportRouter } from "../domains/organizers/router.ts";
import {
  adminOrganizerListInput,
  adminOrganizerListItem,
  adminOrganizerOutput,
  answersBody,
  clientOrganizerListItem,
  clientOrganizerOutput,
  createOrganizerInput,
  createOrganizerOutput,
  readyTemplateOutput,
  reopenBody,
  reviewedBody,
  templateChanges,
  templateInput,
  templateOutput,
} from "../domains/organizers/schemas.ts";
import { successOutput } from "../domains/shared-schemas.ts";
import { firmName } from "../domains/site/service.ts";
import { createCallerFactory } from "../trpc/init.ts";
import type { AppDeps } from "../trpc/context.ts";
import { csvCell } from "../domains/csv-lines.ts";
import { setFileHeaders } from "./download.ts";
import { toHttpError } from "./errors.ts";
import { createRequestContext } from "./handler.ts";
import { bodyOf, procedureRoute, type RestRoute } from "./route.ts";

const createExportCaller = createCallerFactory(organizersExportRouter);

export const organizerRoutes: RestRoute[] = [
  procedureRoute({
    method: "get",
    path: "/organizers",
    summary: "The organizers the firm sent the caller's account, newest first, with how many questions are answered",
    tag: "organizers",
    access: "client",
    response: z.array(clientOrganizerListItem),
    call: (c) => c.organizers.list(),
  }),
  procedureRoute({
    method: "get",
    path: "/organizers/:id",
    summary:
      "One organizer: its questions (the template as sent) and the answers so far (sensitive ones masked), with the documents of each file question",
    tag: "organizers",
    access: "client",
    response: clientOrganizerOutput,
    call: (c, r) => c.organizers.get({ id: r.params.id }),
  }),
  procedureRoute({
    method: "put",
    path: "/organizers/:id/answers",
    summary:
      "Save some answers ({ answers: { <question id>: value } }; null clears one; the same value as last year's confirms it). Answers of questions a condition now hides are removed. 409 once submitted",
    tag: "organizers",
    access: "client",
    body: answersBody,
    response: clientOrganizerOutput,
    call: (c, r) => c.organizers.saveAnswers({ ...bodyOf(r), id: r.params.id }),
  }),
  procedureRoute({
    method: "post",
    path: "/organizers/:id/submit",
    summary: "Hand the organizer in (422 naming the required visible questions still empty; 409 once submitted); the firm is mailed",
    tag: "organizers",
    access: "client",
    response: clientOrganizerOutput,
    call: (c, r) => c.organizers.submit({ id: r.params.id }),
  }),
  procedureRoute({
    method: "post",
    path: "/organizers/:id/unsubmit",
    summary: "Take a submitted organizer back to change answers (409 unless submitted)",
    tag: "organizers",
    access: "client",
    response: clientOrganizerOutput,
    call: (c, r) => c.organizers.unsubmit({ id: r.params.id }),
  }),
  procedureRoute({
    method: "get",
    path: "/admin/organizer-templates",
    summary: "The firm's organizer templates, by name, with how many organizers were sent from each",
    tag: "admin",
    access: "admin",
    response: z.array(templateOutput),
    call: (c) => c.admin.organizers.templates(),
  }),
  procedureRoute({
    method: "get",
    path: "/admin/organizer-templates/ready",
    summary: "The templates the portal ships (an Individual tax organizer), to copy with POST /admin/organizer-templates and adjust",
    tag: "admin",
    access: "admin",
    response: z.array(readyTemplateOutput),
    call: (c) => c.admin.organizers.readyTemplates(),
  }),
  procedureRoute({
    method: "post",
    path: "/admin/organizer-templates",
    summary: "Add a template: { name, template: { sections: [{ title, questions: [...] }] } }",
    tag: "admin",
    access: "admin",
    body: templateInput,
    response: templateOutput,
    status: 201,
    call: (c, r) => c.admin.organizers.createTemplate(r.body),
  }),
  procedureRoute({
    method: "get",
    path: "/admin/organizer-templates/:id",
    summary: "One template",
    tag: "admin",
    access: "admin",
    response: templateOutput,
    call: (c, r) => c.admin.organizers.template({ id: r.params.id }),
  }),
  procedureRoute({
    method: "put",
    path: "/admin/organizer-templates/:id",
    summary: "Change a template's name or questions (organizers already sent keep their copy)",
    tag: "admin",
    access: "admin",
    body: templateChanges,
    response: templateOutput,
    call: (c, r) => c.admin.organizers.updateTemplate({ ...bodyOf(r), id: r.params.id }),
  }),
  procedureRoute({
    method: "delete",
    path: "/admin/organizer-templates/:id",
    summary: "Delete a template: it leaves the list and cannot be sent; organizers sent from it, and its CSV, stay",
    tag: "admin",
    access: "admin",
    response: successOutput,
    call: (c, r) => c.admin.organizers.deleteTemplate({ id: r.params.id }),
  }),
  {
    method: "get",
    path: "/admin/organizer-templates/:id/answers.csv",
    summary: "The answers of every organizer sent from the template, one row per organizer, one column per question (sensitive answers masked)",
    tag: "admin",
    access: "admin",
    response: { description: "The answers as CSV", contentType: "text/csv" },
    handler: answersCsv,
  },
  procedureRoute({
    method: "get",
    path: "/admin/organizers",
    summary: "Every organizer, newest first, by account, template and status",
    tag: "admin",
    access: "admin",
    query: adminOrganizerListInput.extend({ offset: z.coerce.number().int().min(0).optional() }),
    paged: true,
    response: z.array(adminOrganizerListItem),
    call: (c, r) => {
      const { account_id, template_id, status, limit, cursor, offset } = r.query;
      return c.admin.organizers.list({ account_id, template_id, status, limit, cursor: cursor ?? offset });
    },
  }),
  procedureRoute({
    method: "post",
    path: "/admin/organizers",
    summary:
      "Send a template to an account ({ account_id, template_id, title, due_date? }: answers the organizer) or to many ({ account_ids: [...] }: answers { organizers }); draft: true keeps it unsent",
    tag: "admin",
    access: "admin",
    body: createOrganizerInput,
    response: createOrganizerOutput,
    status: 201,
    call: (c, r) => c.admin.organizers.create(r.body),
  }),
  procedureRoute({
    method: "get",
    path: "/admin/organizers/:id",
    summary: "One organizer with every answer in full, its reviewed marks and the documents of each file question",
    tag: "admin",
    access: "admin",
    response: adminOrganizerOutput,
    call: (c, r) => c.admin.organizers.get({ id: r.params.id }),
  }),
  procedureRoute({
    method: "post",
    path: "/admin/organizers/:id/send",
    summary: "Send a draft organizer (the client is mailed; 409 once sent)",
    tag: "admin",
    access: "admin",
    response: adminOrganizerOutput,
    call: (c, r) => c.admin.organizers.send({ id: r.params.id }),
  }),
  procedureRoute({
    method: "put",
    path: "/admin/organizers/:id/answers/:questionId/reviewed",
    summary: "Mark one answer reviewed, or not ({ reviewed }); the client's change of the answer clears it",
    tag: "admin",
    access: "admin",
    body: reviewedBody,
    response: adminOrganizerOutput,
    call: (c, r) => c.admin.organizers.reviewAnswer({ ...bodyOf(r), id: r.params.id, question_id: r.params.questionId }),
  }),
  procedureRoute({
    method: "post",
    path: "/admin/organizers/:id/reopen",
    summary: "Give a submitted organizer back to the client with a comment ({ comment }); they are mailed",
    tag: "admin",
    access: "admin",
    body: reopenBody,
    response: adminOrganizerOutput,
    call: (c, r) => c.admin.organizers.reopen({ ...bodyOf(r), id: r.params.id }),
  }),
  {
    method: "get",
    path: "/admin/organizers/:id/pdf",
    summary: "The organizer as a PDF: the visible questions and their answers, with the documents of each file question listed",
    tag: "admin",
    access: "admin",
    response: { description: "The organizer as PDF", contentType: "application/pdf" },
    handler: pdfDownload,
  },
];

function pdfDownload(deps: AppDeps): RequestHandler {
  return async (req, res) => {
    try {
      const organizer = await createCaller(createRequestContext(deps, req, res)).admin.organizers.get({ id: String(req.params.id) });
      const bytes = await organizerPdf(organizer, await firmName(deps));
      res.status(200);
      setFileHeaders(res, {
        contentType: "application/pdf",
        filename: `${fileName(organizer.client_label)}-${fileName(organizer.title)}.pdf`,
        presentation: "attachment",
      });
      res.end(Buffer.from(bytes));
    } catch (err) {
      const { status, detail } = toHttpError(err, deps.logger);
      if (!res.headersSent) res.status(status).json({ detail });
    }
  };
}

function answersCsv(deps: AppDeps): RequestHandler {
  return async (req, res) => {
    try {
      const table = await createExportCaller(createRequestContext(deps, req, res)).answersTable({ id: String(req.params.id) });
      res.status(200);
      setFileHeaders(res, { contentType: "text/csv; charset=utf-8", filename: table.filename, presentation: "attachment" });
      res.end(table.rows.map((row) => `${row.map(csvCell).join(",")}\r\n`).join(""));
    } catch (err) {
      const { status, detail } = toHttpError(err, deps.logger);
      if (!res.headersSent) res.status(status).json({ detail });
    }
  };
}

function fileName(text: string): string {
  return (
    text
      .replace(/[^A-Za-z0-9 _-]+/g, "")
      .trim()
      .replace(/\s+/g, "-")
      .slice(0, 60) || "organizer"
  );
}
