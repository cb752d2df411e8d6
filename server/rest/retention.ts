// Retention and disposal over REST (docs/safeguards.md, "Retention and disposal"): the firm's rules,
// what is due within 30 days, and an account's legal hold.
import { accountLegalHoldOutput, dueListOutput, legalHoldBody, retentionSettingsOutput, updateRetentionInput } from "../domains/retention/schemas.ts";
import { bodyOf, procedureRoute, type RestRoute } from "./route.ts";

export const retentionRoutes: RestRoute[] = [
  procedureRoute({
    method: "get",
    path: "/admin/retention",
    summary:
      "The firm's retention rules: years documents are kept after an account's last activity, years a signed Form 8879 is kept, days in the trash",
    tag: "admin",
    access: "admin",
    response: retentionSettingsOutput,
    call: (c) => c.admin.retention.get(),
  }),
  procedureRoute({
    method: "put",
    path: "/admin/retention",
    summary: "Set the retention rules (1-50 years after last activity; a signed Form 8879 at least 3 years)",
    tag: "admin",
    access: "admin",
    body: updateRetentionInput,
    response: retentionSettingsOutput,
    call: (c, r) => c.admin.retention.update(bodyOf(r)),
  }),
  procedureRoute({
    method: "get",
    path: "/admin/retention/due",
    summary:
      "What the daily disposal deletes within the next 30 days, one line per account and rule (documents, bytes, the date the first goes), held accounts marked; the legal holds in place; and the accounts without people kept for their signed records, with the day those are released",
    tag: "admin",
    access: "admin",
    response: dueListOutput,
    call: (c) => c.admin.retention.due(),
  }),
  procedureRoute({
    method: "get",
    path: "/admin/accounts/:id/legal-hold",
    summary: "A client account's legal hold (reason, when, by whom), or null",
    tag: "admin",
    access: "admin",
    response: accountLegalHoldOutput,
    call: (c, r) => c.admin.retention.legalHold({ id: r.params.id }),
  }),
  procedureRoute({
    method: "post",
    path: "/admin/accounts/:id/legal-hold",
    summary: "Place a legal hold on a client account (or change its reason): nothing of it is disposed of, the trash included, until it is lifted",
    tag: "admin",
    access: "admin",
    body: legalHoldBody,
    response: accountLegalHoldOutput,
    call: (c, r) => c.admin.retention.placeLegalHold({ id: r.params.id, reason: bodyOf(r).reason }),
  }),
  procedureRoute({
    method: "delete",
    path: "/admin/accounts/:id/legal-hold",
    summary: "Lift an account's legal hold (an account without one answers as it is)",
    tag: "admin",
    access: "admin",
    response: accountLegalHoldOutput,
    call: (c, r) => c.admin.retention.clearLegalHold({ id: r.params.id }),
  }),
];
