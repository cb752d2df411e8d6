import { setupChecklistHiddenInput, setupChecklistOutput, taxYearInput, taxYearOutput } from "../domains/firm-setup/schemas.ts";
import { procedureRoute, type RestRoute } from "./route.ts";

/** The firm's first setup (issue 31): the Tax Forms tab's year and the admin's first-day checklist. */
export const firmSetupRoutes: RestRoute[] = [
  procedureRoute({
    method: "get",
    path: "/tax-year",
    summary: "The tax year the portal's Tax Forms tab names",
    tag: "client",
    access: "client",
    response: taxYearOutput,
    call: (c) => c.firm.taxYear(),
  }),
  procedureRoute({
    method: "get",
    path: "/admin/tax-year",
    summary: "The tax year the portal's Tax Forms tab names (2024 until the firm changes it)",
    tag: "admin",
    access: "admin",
    response: taxYearOutput,
    call: (c) => c.admin.firm.taxYear(),
  }),
  procedureRoute({
    method: "put",
    path: "/admin/tax-year",
    summary: "Set the tax year of the Tax Forms tab: from 2020 to next year",
    tag: "admin",
    access: "admin",
    body: taxYearInput,
    response: taxYearOutput,
    call: (c, r) => c.admin.firm.setTaxYear(r.body),
  }),
  procedureRoute({
    method: "get",
    path: "/admin/setup-checklist",
    summary: "The first-day checklist: each step of the firm's setup and whether it is done",
    tag: "admin",
    access: "admin",
    response: setupChecklistOutput,
    call: (c) => c.admin.firm.setupChecklist(),
  }),
  procedureRoute({
    method: "put",
    path: "/admin/setup-checklist",
    summary: "Hide the first-day checklist on the Overview, or show it again",
    tag: "admin",
    access: "admin",
    body: setupChecklistHiddenInput,
    response: setupChecklistOutput,
    call: (c, r) => c.admin.firm.setSetupChecklistHidden(r.body),
  }),
];
