import { router } from "../../trpc/init.ts";
import { staffProcedure } from "../../trpc/procedures.ts";
import { idInput } from "../shared-schemas.ts";
import { availabilityInput, createMeetingTypeInput, updateMeetingTypeInput } from "./schemas.ts";
import { availability, createMeetingType, deleteMeetingType, meetingTypes, setAvailability, updateMeetingType } from "./service.ts";

/** The firm's availability and meeting types, the firm sub-router `admin.availability`. */
export const availabilityFirmRouter = router({
  get: staffProcedure("appointments").query(({ ctx }) => availability(ctx)),
  set: staffProcedure("appointments")
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
});
