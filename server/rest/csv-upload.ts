// POST /api/admin/accounts/import with a .csv file (docs/decisions.md, "The firm's paths take the
// account"): the multipart body is read with busboy (one file in the field "file", at most the
// import's 1 MB, and an optional `dry_run` field, "true" unless "false"), and its text goes to the
// same procedure as the JSON body's `csv`, so the preview and the refused rows are the same.
import busboy from "busboy";
import { TRPCError } from "@trpc/server";
import type { Request, RequestHandler } from "express";
import { IMPORT_MAX_CHARS } from "../domains/accounts/firm-schemas.ts";
import type { AppDeps } from "../trpc/context.ts";
import { toHttpError } from "./errors.ts";
import { procedureHandler, type ProcedureRoute } from "./route.ts";
import { DISCARD_TIMEOUT_MS, discardRest, meterBody } from "./upload.ts";

const FILE_FIELD = "file";
const TOO_LARGE = "The CSV file must be at most 1 MB: split it";
const NOT_CSV = "Upload a .csv file (comma-separated text)";
/** The file and a few small fields around it. */
const MAX_BODY_BYTES = IMPORT_MAX_CHARS + 64 * 1024;

const refuse = (code: "BAD_REQUEST" | "PAYLOAD_TOO_LARGE" | "UNPROCESSABLE_CONTENT", message: string) => new TRPCError({ code, message });

function readCsvForm(req: Request): Promise<{ csv: string; dry_run: boolean }> {
  return new Promise((resolve, reject) => {
    let parser: busboy.Busboy;
    try {
      parser = busboy({ headers: req.headers, limits: { files: 1, fields: 5, parts: 6, fileSize: IMPORT_MAX_CHARS, fieldSize: 100 } });
    } catch {
      reject(refuse("BAD_REQUEST", `Send the file as multipart/form-data in the field "${FILE_FIELD}"`));
      return;
    }
    let settled = false;
    const fail = (err: TRPCError) => {
      if (settled) return;
      settled = true;
      req.unpipe(parser);
      reject(err);
    };
    const chunks: Buffer[] = [];
    let files = 0;
    let dryRun = true;
    parser.on("file", (name, stream, info) => {
      files += 1;
      const csvName = /\.csv$/i.test(info.filename ?? "");
      const csvType = ["text/csv", "application/csv", "application/vnd.ms-excel", "text/plain"].includes(info.mimeType);
      if (name !== FILE_FIELD) fail(refuse("BAD_REQUEST", `Send the file in the field "${FILE_FIELD}"`));
      else if (!csvName && !csvType) fail(refuse("UNPROCESSABLE_CONTENT", NOT_CSV));
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("limit", () => fail(refuse("PAYLOAD_TOO_LARGE", TOO_LARGE)));
      // A form cut off inside the file destroys the file's stream with the parser's error: without
      // this listener that error would be thrown at the process (seen by the fuzzer).
      stream.on("error", () => fail(refuse("BAD_REQUEST", "The upload is not a well-formed multipart form")));
      stream.resume();
    });
    parser.on("field", (name, value, info) => {
      if (info.valueTruncated) fail(refuse("BAD_REQUEST", `The form field "${name}" is too long`));
      else if (name === "dry_run") {
        if (value !== "true" && value !== "false") fail(refuse("UNPROCESSABLE_CONTENT", "dry_run must be true or false"));
        dryRun = value !== "false";
      }
    });
    parser.on("filesLimit", () => fail(refuse("BAD_REQUEST", "Upload exactly one file per request")));
    parser.on("fieldsLimit", () => fail(refuse("BAD_REQUEST", "Too many form fields")));
    parser.on("partsLimit", () => fail(refuse("BAD_REQUEST", "Too many form fields")));
    parser.on("error", () => fail(refuse("BAD_REQUEST", "The upload is not a well-formed multipart form")));
    parser.on("close", () => {
      if (settled) return;
      if (files === 0) return fail(refuse("BAD_REQUEST", "No file was uploaded"));
      settled = true;
      const text = Buffer.concat(chunks).toString("utf8");
      // A spreadsheet's "CSV UTF-8" starts with a byte order mark, which is not part of the first field.
      resolve({ csv: text.replace(/^\uFEFF/, ""), dry_run: dryRun });
    });
    req.pipe(parser);
    req.resume();
  });
}

/** The import's JSON row for a JSON body; a multipart body is read into the same fields first. */
export function csvImportHandler(deps: AppDeps, json: ProcedureRoute): RequestHandler {
  const asJson = procedureHandler(deps, json);
  return async (req, res, next) => {
    if (!req.is("multipart/form-data")) return asJson(req, res, next);
    const received = meterBody(req);
    try {
      if (Number(req.headers["content-length"]) > MAX_BODY_BYTES) throw refuse("PAYLOAD_TOO_LARGE", TOO_LARGE);
      req.body = await readCsvForm(req);
    } catch (err) {
      const { status, detail } = toHttpError(err, deps.logger);
      const discarded = await discardRest(req, received, DISCARD_TIMEOUT_MS, MAX_BODY_BYTES);
      if (res.headersSent || res.destroyed) return;
      if (!discarded) res.setHeader("Connection", "close");
      res.status(status).json({ detail });
      return;
    }
    return asJson(req, res, next);
  };
}
