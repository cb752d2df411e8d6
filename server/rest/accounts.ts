import { z } from "zod";
import { accountOutput, switchAccountInput } from "../domains/accounts/schemas.ts";
import { procedureRoute, type RestRoute } from "./route.ts";

export const accountRoutes: RestRoute[] = [
  procedureRoute({
    method: "get",
    path: "/accounts",
    summary: "The client accounts the caller can open, with their role in each",
    tag: "accounts",
    access: "client",
    response: z.array(accountOutput),
    call: (c) => c.accounts.list(),
  }),
  procedureRoute({
    method: "post",
    path: "/accounts/switch",
    summary: "Make one of the caller's accounts the current one (404 for any other)",
    tag: "accounts",
    access: "client",
    body: switchAccountInput,
    response: accountOutput,
    call: (c, r) => c.accounts.switch(r.body),
  }),
];
