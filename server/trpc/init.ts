import { initTRPC } from "@trpc/server";
import superjson from "superjson";
import type { Context } from "./context.ts";
import { superjsonInput } from "./transformer.ts";
import { zodIssuesDetail } from "./errors.ts";
import { ZodError } from "zod";

const t = initTRPC.context<Context>().create({
  // Answers go out as superjson writes them; what callers send is checked before it is decoded.
  transformer: { input: superjsonInput, output: superjson },
  errorFormatter({ shape, error }) {
    const zodError = error.cause instanceof ZodError ? error.cause : null;
    return {
      ...shape,
      // Internal errors never show their message (it may quote SQL or paths) to the caller.
      message: zodError ? zodIssuesDetail(zodError) : error.code === "INTERNAL_SERVER_ERROR" ? "Internal server error" : shape.message,
      data: {
        code: shape.data.code,
        httpStatus: shape.data.httpStatus,
        path: shape.data.path,
        issues: zodError ? zodError.issues.map((i) => ({ path: i.path.map(String), message: i.message })) : undefined,
      },
    };
  },
});

export const router = t.router;
export const createCallerFactory = t.createCallerFactory;
export const baseProcedure = t.procedure;
