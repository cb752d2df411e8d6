// A multipart form carrying one small file read whole into memory (a CSV import, a PDF to verify),
// with a few short fields beside it. Documents go through upload.ts instead, streamed to storage.
// Every way a form can be wrong is a 4xx with a detail: a wrong field, a second file, too many
// fields, a file or field past its limit, a form cut off (its file stream's error too: without a
// listener busboy's "Unexpected end of form" would be thrown at the process).
import busboy from "busboy";
import { TRPCError } from "@trpc/server";
import type { Request, RequestHandler } from "express";
import type { AppDeps } from "../trpc/context.ts";
import { toHttpError } from "./errors.ts";
import { DISCARD_TIMEOUT_MS, discardRest, meterBody } from "./upload.ts";

type Refusal = "BAD_REQUEST" | "PAYLOAD_TOO_LARGE" | "UNPROCESSABLE_CONTENT";
export const refuse = (code: Refusal, message: string) => new TRPCError({ code, message });

export type OneFileForm = {
  /** The file's field name ("file"). */
  field: string;
  /** The file's limit in bytes, and the detail past it. */
  maxBytes: number;
  tooLarge: string;
  /** What to send, for the detail of a body that is no multipart form ("the PDF", "the file"). */
  what: string;
  /** A refusal for the file's name and type, or null to take it. */
  checkFile?: (info: busboy.FileInfo) => TRPCError | null;
  /** A refusal for a field's value, or null to take it. */
  checkField?: (name: string, value: string) => TRPCError | null;
  /** Counts the request before its body is read (a rate limit); throws to refuse it. */
  admit?: (req: Request) => Promise<void>;
};

/** The whole body's limit: the file and a few small fields around it. */
export const formLimit = (form: OneFileForm) => form.maxBytes + 64 * 1024;

export function readOneFileForm(req: Request, form: OneFileForm): Promise<{ file: Buffer; fields: Record<string, string> }> {
  return new Promise((resolve, reject) => {
    let parser: busboy.Busboy;
    try {
      parser = busboy({ headers: req.headers, limits: { files: 1, fields: 5, parts: 6, fileSize: form.maxBytes, fieldSize: 100 } });
    } catch {
      reject(refuse("BAD_REQUEST", `Send ${form.what} as multipart/form-data in the field "${form.field}"`));
      return;
    }
    let settled = false;
    const fail = (err: TRPCError) => {
      if (settled) return;
      settled = true;
      req.unpipe(parser);
      reject(err);
    };
    const malformed = () => fail(refuse("BAD_REQUEST", "The upload is not a well-formed multipart form"));
    const chunks: Buffer[] = [];
    const fields: Record<string, string> = {};
    let files = 0;
    parser.on("file", (name, stream, info) => {
      files += 1;
      const refused =
        name !== form.field ? refuse("BAD_REQUEST", `Send ${form.what} in the field "${form.field}"`) : (form.checkFile?.(info) ?? null);
      if (refused) fail(refused);
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("limit", () => fail(refuse("PAYLOAD_TOO_LARGE", form.tooLarge)));
      stream.on("error", malformed);
      stream.resume();
    });
    parser.on("field", (name, value, info) => {
      if (info.valueTruncated) return fail(refuse("BAD_REQUEST", `The form field "${name}" is too long`));
      const refused = form.checkField?.(name, value);
      if (refused) return fail(refused);
      fields[name] = value;
    });
    parser.on("filesLimit", () => fail(refuse("BAD_REQUEST", "Upload exactly one file per request")));
    parser.on("fieldsLimit", () => fail(refuse("BAD_REQUEST", "Too many form fields")));
    parser.on("partsLimit", () => fail(refuse("BAD_REQUEST", "Too many form fields")));
    parser.on("error", malformed);
    parser.on("close", () => {
      if (settled) return;
      if (files === 0) return fail(refuse("BAD_REQUEST", "No file was uploaded"));
      settled = true;
      resolve({ file: Buffer.concat(chunks), fields });
    });
    req.pipe(parser);
    req.resume();
  });
}

/**
 * Runs `handle` once the form is read; any refusal (the form's or the handler's) is answered with
 * its status and detail after the rest of the body is read off (or the connection closed).
 */
export function oneFileFormHandler(
  deps: AppDeps,
  form: OneFileForm,
  handle: (req: Request, res: Parameters<RequestHandler>[1], read: { file: Buffer; fields: Record<string, string> }) => Promise<void>,
): RequestHandler {
  return async (req, res) => {
    const received = meterBody(req);
    try {
      if (!req.is("multipart/form-data")) throw refuse("BAD_REQUEST", `Send ${form.what} as multipart/form-data in the field "${form.field}"`);
      if (Number(req.headers["content-length"]) > formLimit(form)) throw refuse("PAYLOAD_TOO_LARGE", form.tooLarge);
      await form.admit?.(req);
      await handle(req, res, await readOneFileForm(req, form));
    } catch (err) {
      const { status, detail } = toHttpError(err, deps.logger);
      const discarded = await discardRest(req, received, DISCARD_TIMEOUT_MS, formLimit(form));
      if (res.headersSent || res.destroyed) return;
      if (!discarded) res.setHeader("Connection", "close");
      res.status(status).json({ detail });
    }
  };
}
