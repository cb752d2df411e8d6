// Whom a client account is assigned to at the firm (docs/decisions.md, "Assigned accounts (issue 33)").
import { accessReportInput, accessReportOutput, accountAssigneesOutput, setAccountAssigneesInput } from "../domains/staff/schemas.ts";
import { bodyOf, procedureRoute, type RestRoute } from "./route.ts";

export const assignmentRoutes: RestRoute[] = [
  procedureRoute({
    method: "get",
    path: "/admin/accounts/:id/assignees",
    summary: "The firm's people a client account is assigned to (404 for an account outside the caller's reach)",
    tag: "admin",
    access: "admin",
    response: accountAssigneesOutput,
    call: (c, r) => c.admin.staff.accountAssignees({ account_id: r.params.id }),
  }),
  procedureRoute({
    method: "put",
    path: "/admin/accounts/:id/assignees",
    summary:
      "Replace whom a client account is assigned to: `user_ids` of active staff (422 naming a client or unknown id; the manage_clients right); staff without all_clients reach only their assigned accounts",
    tag: "admin",
    access: "admin",
    body: setAccountAssigneesInput.omit({ id: true }),
    response: accountAssigneesOutput,
    call: (c, r) => c.admin.staff.setAccountAssignees({ ...bodyOf(r), id: r.params.id }),
  }),
  procedureRoute({
    method: "get",
    path: "/admin/accounts/:id/access-report",
    summary:
      "Who at the firm opened this client account's documents, and when: the trail's downloads and previews by the firm's people, newest first (the activity right; 404 outside the caller's reach)",
    tag: "admin",
    access: "admin",
    query: accessReportInput.pick({ limit: true }),
    response: accessReportOutput,
    call: (c, r) => c.admin.staff.accessReport({ id: r.params.id, limit: r.query.limit }),
  }),
];
