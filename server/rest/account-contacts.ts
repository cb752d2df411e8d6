// An account's people, by its own contacts (docs/decisions.md, "An account's people").
import { z } from "zod";
import { accountOutput } from "../domains/accounts/schemas.ts";
import { contactOutput, inviteContactInput, joinAccountInput, updateContactRoleBody } from "../domains/account-contacts/schemas.ts";
import { successOutput } from "../domains/shared-schemas.ts";
import { procedureRoute, type RestRoute } from "./route.ts";

export const accountContactRoutes: RestRoute[] = [
  procedureRoute({
    method: "get",
    path: "/account/contacts",
    summary: "The current account's people: name, email, role, and whether they joined or are invited",
    tag: "accounts",
    access: "client",
    response: z.array(contactOutput),
    call: (c) => c.accountContacts.list(),
  }),
  procedureRoute({
    method: "post",
    path: "/account/contacts",
    summary:
      "Invite another person to the current account (owners with a verified email address only, else 403): an email with a single-use link valid for 7 days that joins them as a member (409 if they are in it or the address has a pending invitation)",
    tag: "accounts",
    access: "client",
    body: inviteContactInput,
    response: contactOutput,
    status: 201,
    call: (c, r) => c.accountContacts.invite(r.body),
  }),
  procedureRoute({
    method: "patch",
    path: "/account/contacts/:userId",
    summary:
      "Say who a person of the current household is (household_role: taxpayer, spouse, dependent, or null); owners only, else 403; 422 for an account that is not a household",
    tag: "accounts",
    access: "client",
    body: updateContactRoleBody,
    response: contactOutput,
    call: (c, r) => c.accountContacts.updateRole({ ...r.body, user_id: r.params.userId }),
  }),
  procedureRoute({
    method: "delete",
    path: "/account/contacts/:userId",
    summary: "Remove a person from the current account (owners only, else 403; 409 for its only owner): their next request for its data is a 404",
    tag: "accounts",
    access: "client",
    response: successOutput,
    call: (c, r) => c.accountContacts.remove({ user_id: r.params.userId }),
  }),
  procedureRoute({
    method: "post",
    path: "/accounts/join",
    summary:
      "Accept, while signed in, an invitation to join an account (the link's token): the account joins the caller's list and becomes current (403 if the invitation is for another address)",
    tag: "accounts",
    access: "client",
    body: joinAccountInput,
    response: accountOutput,
    call: (c, r) => c.accountContacts.join(r.body),
  }),
];
