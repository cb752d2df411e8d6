// Request templates (issue 34): the requests the firm sends every season ("2025 tax documents": a
// message and its checklist), kept firm-wide and copied into a new request (service.ts
// createRequest, template_id). Each change is in the firm's trail.
import { TRPCError } from "@trpc/server";
import { recordActivity } from "../activity/record.ts";
import type { FirmContext } from "../../trpc/context.ts";
import type { Success } from "../shared-schemas.ts";
import { deleteRequestTemplateRow, insertRequestTemplate, listRequestTemplates, updateRequestTemplateRow } from "./queries.ts";
import { type RequestTemplate, type RequestTemplateInput, TEMPLATE_NOT_FOUND, type UpdateRequestTemplateInput } from "./schemas.ts";

type TemplateRow = Awaited<ReturnType<typeof listRequestTemplates>>[number];

/** A template's items as stored (a JSON list of titles; the embedded database may hand back its text). */
export function templateItems(row: Pick<TemplateRow, "items">): Array<{ title: string }> {
  const items: unknown = typeof row.items === "string" ? JSON.parse(row.items) : row.items;
  return Array.isArray(items) ? items.map((title) => ({ title: String(title) })) : [];
}

function toTemplate(row: TemplateRow): RequestTemplate {
  return { ...row, items: templateItems(row) };
}

export async function listTemplates(ctx: FirmContext): Promise<RequestTemplate[]> {
  return (await listRequestTemplates(ctx.db)).map(toTemplate);
}

export async function createTemplate(ctx: FirmContext, input: RequestTemplateInput): Promise<RequestTemplate> {
  return ctx.db.transaction().execute(async (tx) => {
    const row = await insertRequestTemplate(tx, {
      title: input.title,
      description: input.description,
      items: input.items.map((item) => item.title),
      created_by: ctx.user.id,
      now: ctx.now(),
    });
    await recordActivity(tx, ctx, {
      action: "request_template.create",
      client: null,
      target: { type: "request_template", id: row.id },
      detail: { title: row.title, items: input.items.length },
    });
    return toTemplate(row);
  });
}

export async function updateTemplate(ctx: FirmContext, input: UpdateRequestTemplateInput): Promise<RequestTemplate> {
  return ctx.db.transaction().execute(async (tx) => {
    const row = await updateRequestTemplateRow(tx, input.id, {
      title: input.title,
      description: input.description,
      items: input.items?.map((item) => item.title),
      now: ctx.now(),
    });
    if (!row) throw new TRPCError({ code: "NOT_FOUND", message: TEMPLATE_NOT_FOUND });
    await recordActivity(tx, ctx, {
      action: "request_template.update",
      client: null,
      target: { type: "request_template", id: row.id },
      detail: { title: row.title, items: templateItems(row).length },
    });
    return toTemplate(row);
  });
}

/** Requests made from it keep their copy. */
export async function deleteTemplate(ctx: FirmContext, input: { id: string }): Promise<Success> {
  await ctx.db.transaction().execute(async (tx) => {
    const row = await deleteRequestTemplateRow(tx, input.id);
    if (!row) throw new TRPCError({ code: "NOT_FOUND", message: TEMPLATE_NOT_FOUND });
    await recordActivity(tx, ctx, {
      action: "request_template.delete",
      client: null,
      target: { type: "request_template", id: row.id },
      detail: { title: row.title },
    });
  });
  return { success: true };
}
