import { router } from "../../trpc/init.ts";
import { adminProcedure, staffProcedure } from "../../trpc/procedures.ts";
import { idInput, successOutput } from "../shared-schemas.ts";
import { accessReport, accountAssignees, accountReach, setAccountAssignees } from "./assignments.ts";
import {
  accessReportInput,
  accessReportOutput,
  accountAssigneesInput,
  accountAssigneesOutput,
  accountReachOutput,
  createStaffInput,
  setAccountAssigneesInput,
  staffInvitationOutput,
  staffMemberOutput,
  updateStaffInput,
} from "./schemas.ts";
import { inviteStaff, resendStaffInvitation, revokeStaffInvitation, staffInvitationList, staffList, updateStaff } from "./service.ts";

/** The firm sub-router `admin.staff`: `admin.staff.list`, `admin.staff.invite`, `admin.staff.update` (which also transfers ownership: role owner, by the owner). */
export const staffFirmRouter = router({
  list: staffProcedure("staff")
    .output(staffMemberOutput.array())
    .query(({ ctx }) => staffList(ctx)),
  invite: staffProcedure("staff")
    .input(createStaffInput)
    .output(staffInvitationOutput)
    .mutation(({ ctx, input }) => inviteStaff(ctx, input)),
  invitations: staffProcedure("staff")
    .output(staffInvitationOutput.array())
    .query(({ ctx }) => staffInvitationList(ctx)),
  revokeInvitation: staffProcedure("staff")
    .input(idInput)
    .output(successOutput)
    .mutation(({ ctx, input }) => revokeStaffInvitation(ctx, input)),
  resendInvitation: staffProcedure("staff")
    .input(idInput)
    .output(staffInvitationOutput)
    .mutation(({ ctx, input }) => resendStaffInvitation(ctx, input)),
  update: staffProcedure("staff")
    .input(updateStaffInput)
    .output(staffMemberOutput)
    .mutation(({ ctx, input }) => updateStaff(ctx, input)),
  /** Whom a client account is assigned to; any of the firm's people who reach the account may look. */
  accountAssignees: adminProcedure
    .input(accountAssigneesInput)
    .output(accountAssigneesOutput)
    .query(({ ctx, input }) => accountAssignees(ctx, input)),
  /** Whether the asker reaches a client account or person, and if not, whether it is only not assigned to them (any of the firm's people). */
  accountReach: adminProcedure
    .input(accountAssigneesInput)
    .output(accountReachOutput)
    .query(({ ctx, input }) => accountReach(ctx, input)),
  setAccountAssignees: staffProcedure("manage_clients")
    .input(setAccountAssigneesInput)
    .output(accountAssigneesOutput)
    .mutation(({ ctx, input }) => setAccountAssignees(ctx, input)),
  accessReport: staffProcedure("activity")
    .input(accessReportInput)
    .output(accessReportOutput)
    .query(({ ctx, input }) => accessReport(ctx, input)),
});
