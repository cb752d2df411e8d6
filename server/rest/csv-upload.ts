// POST /api/admin/accounts/import with a .csv file (docs/decisions.md, "The firm's paths take the
// account"): the multipart body is read by one-file-form.ts (one file in the field "file", at most
// the import's 1 MB, and an optional `dry_run` field, "true" unless "false"), and its text goes to
// the same procedure as the JSON body's `csv`, so the preview and the refused rows are the same.
import type { RequestHandler } from "express";
import { IMPORT_MAX_CHARS } from "../domains/accounts/firm-schemas.ts";
import type { AppDeps } from "../trpc/context.ts";
import { oneFileFormHandler, type OneFileForm, refuse } from "./one-file-form.ts";
import { procedureHandler, type ProcedureRoute } from "./route.ts";

const CSV_TYPES = ["text/csv", "application/csv", "application/vnd.ms-excel", "text/plain"];

const csvForm: OneFileForm = {
  field: "file",
  maxBytes: IMPORT_MAX_CHARS,
  tooLarge: "The CSV file must be at most 1 MB: split it",
  what: "the file",
  checkFile: (info) =>
    /\.csv$/i.test(info.filename ?? "") || CSV_TYPES.includes(info.mimeType)
      ? null
      : refuse("UNPROCESSABLE_CONTENT", "Upload a .csv file (comma-separated text)"),
  checkField: (name, value) =>
    name === "dry_run" && value !== "true" && value !== "false" ? refuse("UNPROCESSABLE_CONTENT", "dry_run must be true or false") : null,
};

/** The import's JSON row for a JSON body; a multipart body is read into the same fields first. */
export function csvImportHandler(deps: AppDeps, json: ProcedureRoute): RequestHandler {
  const asJson = procedureHandler(deps, json);
  const asForm = oneFileFormHandler(deps, csvForm, async (req, res, { file, fields }) => {
    // A spreadsheet's "CSV UTF-8" starts with a byte order mark, which is not part of the first field.
    req.body = { csv: file.toString("utf8").replace(/^\uFEFF/, ""), dry_run: fields.dry_run !== "false" };
    await asJson(req, res, () => {});
  });
  return (req, res, next) => (req.is("multipart/form-data") ? asForm(req, res, next) : asJson(req, res, next));
}
