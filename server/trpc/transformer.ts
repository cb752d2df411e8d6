/*
 * How /trpc decodes a caller's input: superjson, after a check of what the caller sent.
 *
 * An input arrives as `{ json, meta }`; `meta.values` tells superjson which values of `json` to
 * rebuild (a Date from its ISO text). superjson trusts that tree: a string where it expects a
 * subtree sends its walk into recursion until the stack overflows (a 90-byte body held the main
 * thread for 5 to 200 ms), and other annotations build registered classes, compile a caller's
 * regular expression or parse a megabyte of bigint digits. So one pass over `meta`, bounded and
 * without recursion, first accepts only what our web client sends for our inputs (reasons in
 * docs/security.md, "superjson input"): no `referentialEqualities`, and in `values` at most 1000
 * paths, each naming an existing value of `json`, each marked Date, undefined or number with the
 * text superjson writes for it. With that, superjson's work is linear in the input.
 */
import { TRPCError } from "@trpc/server";
import superjson, { type SuperJSONResult } from "superjson";

const MAX_ANNOTATIONS = 1000;
const MAX_PATH_LENGTH = 256;
const MAX_DATE_LENGTH = 64;
const FORBIDDEN_SEGMENTS = new Set(["__proto__", "prototype", "constructor"]);
const ARRAY_INDEX = /^(?:0|[1-9]\d*)$/;

/** The annotations our inputs use, and what superjson.serialize writes in `json` for each. */
const ACCEPTED = new Map<string, (value: unknown) => boolean>([
  ["Date", (value) => typeof value === "string" && value.length <= MAX_DATE_LENGTH],
  ["undefined", (value) => value === null],
  ["number", (value) => value === "NaN" || value === "Infinity" || value === "-Infinity" || value === "-0"],
]);

export const superjsonInput = {
  serialize: superjson.serialize,
  deserialize: (payload: unknown): unknown => {
    checkPayload(payload);
    return superjson.deserialize(payload);
  },
};

function refuse(why: string): never {
  throw new TRPCError({ code: "BAD_REQUEST", message: `Invalid superjson input: ${why}` });
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function checkPayload(payload: unknown): asserts payload is SuperJSONResult {
  if (!isRecord(payload) || !Object.hasOwn(payload, "json") || Object.keys(payload).some((key) => key !== "json" && key !== "meta")) {
    refuse("expected {json} or {json, meta}");
  }
  if (!Object.hasOwn(payload, "meta")) return;
  const meta = payload.meta;
  if (!isRecord(meta)) refuse("meta must be an object");
  if (Object.hasOwn(meta, "referentialEqualities")) refuse("meta.referentialEqualities is not accepted");
  if (Object.keys(meta).some((key) => key !== "values" && key !== "v")) refuse("meta may only hold values and v");
  if (Object.hasOwn(meta, "v") && meta.v !== 1) refuse("meta.v must be 1");
  if (Object.hasOwn(meta, "values")) checkValues(payload.json, meta.values, meta.v === 1);
}

function checkValues(json: unknown, values: unknown, v1: boolean): void {
  // A single annotation stands for the whole input (`undefined` for a call without input).
  if (Array.isArray(values)) {
    checkAnnotation(json, values);
    return;
  }
  if (!isRecord(values)) refuse("meta.values must map paths to [type]");
  const paths = Object.keys(values);
  if (paths.length > MAX_ANNOTATIONS) refuse(`more than ${MAX_ANNOTATIONS} annotations`);
  for (const path of paths) {
    const annotation = values[path];
    if (!Array.isArray(annotation)) refuse("meta.values must map paths to [type]");
    checkAnnotation(valueAt(json, path, v1), annotation);
  }
}

function checkAnnotation(value: unknown, annotation: unknown[]): void {
  const fits = typeof annotation[0] === "string" ? ACCEPTED.get(annotation[0]) : undefined;
  if (!fits) refuse("only Date, undefined and number annotations are accepted");
  if (annotation.length !== 1) refuse("an annotation is [type] alone: Date, undefined and number hold no nested values");
  if (!fits(value)) refuse("an annotation does not fit the value at its path");
}

function valueAt(json: unknown, path: string, v1: boolean): unknown {
  if (path.length > MAX_PATH_LENGTH) refuse(`an annotation path is longer than ${MAX_PATH_LENGTH} characters`);
  let value = json;
  for (const segment of parsePath(path, v1)) {
    if (FORBIDDEN_SEGMENTS.has(segment)) refuse("an annotation path may not name __proto__, prototype or constructor");
    const found = Array.isArray(value)
      ? ARRAY_INDEX.test(segment) && Number(segment) < value.length
      : isRecord(value) && Object.hasOwn(value, segment);
    if (!found) refuse("an annotation path names no value of json");
    value = (value as Record<string, unknown>)[segment];
  }
  return value;
}

/**
 * A path split as superjson splits it, so the check sees the segments superjson will follow:
 * `\.` is a dot within a segment; with `v: 1`, `\\` is a backslash and any other `\` is an error.
 */
function parsePath(path: string, v1: boolean): string[] {
  const segments: string[] = [];
  let segment = "";
  for (let i = 0; i < path.length; i++) {
    const char = path[i];
    const next = path[i + 1];
    if (char === "\\" && next === ".") {
      segment += ".";
      i++;
    } else if (char === "\\" && v1) {
      if (next !== "\\") refuse("an annotation path has a backslash that escapes nothing");
      segment += "\\";
      i++;
    } else if (char === ".") {
      segments.push(segment);
      segment = "";
    } else {
      segment += char;
    }
  }
  segments.push(segment);
  return segments;
}
