import { staffProcedure } from "../../trpc/procedures.ts";
import { idInput } from "../shared-schemas.ts";
import { availabilityInput, createMeetingTypeInput, updateMeetingTypeInput } from "./schemas.ts";
import { availability, createMeetingType, deleteMeetingType, meetingTypes, setAvailability, updateMeetingType } from "./service.ts";

/** The firm's availability and meeting types, mounted in the admin router. */
export const availabilityAdminProcedures = {
  availability: staffProcedure("appointments").query(({ ctx }) => availability(ctx)),
  setAvailability: staffProcedure("appointments")
    .input(availabilityInput)
    .mutation(({ ctx, input }) => setAvailability(ctx, input)),
  meetingTypes: staffProcedure("appointments").query(({ ctx }) => meetingTypes(ctx)),
  createMeetingType: staffProcedure("appointments")
    .input(createMeetingTypeInput)
    .mutation(({ ctx, input }) => createMeetingType(ctx, input)),
  updateMeetingType: staffProcedure("appointments")
    .input(updateMeetingTypeInput)
    .mutation(({ ctx, input }) => updateMeetingType(ctx, input)),
  deleteMeetingType: staffProcedure("appointments")
    .input(idInput)
    .mutation(({ ctx, input }) => deleteMeetingType(ctx, input)),
};
