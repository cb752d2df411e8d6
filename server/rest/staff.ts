// The firm's people (docs/decisions.md, "Staff roles and rights (issue 33)"): who is signed in and
// what they may do, the team, invitations to it, and changes (the transfer of ownership among them).
import { z } from "zod";
import { adminMeOutput, createStaffInput, staffInvitationOutput, staffMemberOutput, updateStaffInput } from "../domains/staff/schemas.ts";
import { successOutput } from "../domains/shared-schemas.ts";
import { bodyOf, procedureRoute, type RestRoute } from "./route.ts";

export const staffRoutes: RestRoute[] = [
  procedureRoute({
    method: "get",
    path: "/admin/me",
    summary: "The signed-in person of the firm: who they are, their role (owner, admin or staff) and every right they hold",
    tag: "admin",
    access: "admin",
    response: adminMeOutput,
    call: (c) => c.admin.me(),
  }),
  procedureRoute({
    method: "get",
    path: "/admin/staff",
    summary: "The firm's people, the owner first: role, rights and whether active (the staff right)",
    tag: "admin",
    access: "admin",
    response: z.array(staffMemberOutput),
    call: (c) => c.admin.staff.list(),
  }),
  procedureRoute({
    method: "post",
    path: "/admin/staff",
    summary:
      "Invite a person to the firm's team (name, email, role admin or staff, rights): an email with a single-use link accepted at POST /api/auth/invitations/accept, after which they enrol a second factor (409 if the address has a verified account or a pending invitation)",
    tag: "admin",
    access: "admin",
    body: createStaffInput,
    response: staffInvitationOutput,
    status: 201,
    call: (c, r) => c.admin.staff.invite(r.body),
  }),
  procedureRoute({
    method: "get",
    path: "/admin/staff/invitations",
    summary: "Staff invitations neither accepted nor revoked (pending or expired), newest first",
    tag: "admin",
    access: "admin",
    response: z.array(staffInvitationOutput),
    call: (c) => c.admin.staff.invitations(),
  }),
  procedureRoute({
    method: "delete",
    path: "/admin/staff/invitations/:id",
    summary: "Revoke a staff invitation: its link stops working (409 once accepted)",
    tag: "admin",
    access: "admin",
    response: successOutput,
    call: (c, r) => c.admin.staff.revokeInvitation({ id: r.params.id }),
  }),
  procedureRoute({
    method: "post",
    path: "/admin/staff/invitations/:id/resend",
    summary:
      "Send a staff invitation not yet accepted again: another 7 days and a new single-use link; the earlier link stops working at once (409 once accepted or revoked; 429 past 10 invitations an hour by the sender)",
    tag: "admin",
    access: "admin",
    response: staffInvitationOutput,
    call: (c, r) => c.admin.staff.resendInvitation({ id: r.params.id }),
  }),
  procedureRoute({
    method: "patch",
    path: "/admin/staff/:id",
    summary:
      "Change a person's role (admin or staff), rights or activation; deactivation ends their sessions at once and stops their sign-in, their history stays (409 for the owner). The owner alone gives the role owner, on its own: ownership moves to that person and the owner becomes an admin",
    tag: "admin",
    access: "admin",
    body: updateStaffInput.omit({ id: true }),
    response: staffMemberOutput,
    call: (c, r) => c.admin.staff.update({ ...bodyOf(r), id: r.params.id }),
  }),
];
