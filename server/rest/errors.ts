import { TRPCError } from "@trpc/server";
import { getHTTPStatusCodeFromError } from "@trpc/server/http";
import type { ErrorRequestHandler } from "express";
import type { Logger } from "pino";
import { ZodError } from "zod";
import { isDatabaseUnavailable, SERVICE_UNAVAILABLE_DETAIL } from "../db/errors.ts";
import { ObjectIntegrityError } from "../storage/object-encryption.ts";
import { RequestRefused, zodIssuesDetail } from "../trpc/errors.ts";

/** A stored file that fails decryption: never sent, an error the firm must look into (docs/security.md). */
export const STORED_FILE_DAMAGED = "The stored copy of this file is damaged and cannot be sent; the firm has been alerted in its logs";

export type HttpError = { status: number; detail: string };

/** Maps anything a procedure can throw to the REST contract: a 4xx/5xx status and `{ detail }`. */
export function toHttpError(err: unknown, logger: Logger): HttpError {
  if (err instanceof TRPCError) {
    if (err.cause instanceof ZodError) return { status: 422, detail: zodIssuesDetail(err.cause) };
    if (err instanceof RequestRefused) return { status: 400, detail: err.message };
    if (err.code === "BAD_REQUEST") return { status: 422, detail: err.message };
    if (err.code === "INTERNAL_SERVER_ERROR") {
      if (isDatabaseUnavailable(err.cause)) return { status: 503, detail: SERVICE_UNAVAILABLE_DETAIL };
      logger.error({ err: err.cause ?? err }, "procedure failed");
      return { status: 500, detail: "Internal server error" };
    }
    return { status: getHTTPStatusCodeFromError(err), detail: err.message };
  }
  if (err instanceof ZodError) return { status: 422, detail: zodIssuesDetail(err) };
  if (err instanceof ObjectIntegrityError) {
    logger.error(
      { err, storage_key: err.key },
      "stored file refused: it fails its integrity check (tampered with, truncated, or under an unknown key)",
    );
    return { status: 500, detail: STORED_FILE_DAMAGED };
  }
  if (isDatabaseUnavailable(err)) return { status: 503, detail: SERVICE_UNAVAILABLE_DETAIL };
  const status = httpStatusOf(err);
  if (status && status >= 400 && status < 500) return { status, detail: bodyParserDetail(err, status) };
  logger.error({ err }, "request failed");
  return { status: 500, detail: "Internal server error" };
}

function httpStatusOf(err: unknown): number | undefined {
  if (!err || typeof err !== "object") return undefined;
  const e = err as { status?: unknown; statusCode?: unknown };
  const s = e.status ?? e.statusCode;
  return typeof s === "number" ? s : undefined;
}

// Express's body parsers raise errors with a status and a `type`; say what went wrong in plain words.
function bodyParserDetail(err: unknown, status: number): string {
  const type = (err as { type?: unknown }).type;
  if (type === "entity.parse.failed") return "The request body is not valid JSON";
  if (type === "entity.too.large") return "The request body is too large (at most 1 MB)";
  if (type === "encoding.unsupported" || type === "charset.unsupported") return "Unsupported request encoding";
  if (status === 413) return "The request body is too large";
  if (status === 415) return "Unsupported content type";
  return "Bad request";
}

export function errorHandler(logger: Logger): ErrorRequestHandler {
  return (err, _req, res, next) => {
    if (res.headersSent) return next(err);
    const { status, detail } = toHttpError(err, logger);
    res.status(status).json({ detail });
  };
}
