import { adminProcedure } from "../../trpc/procedures.ts";
import { idInput } from "../shared-schemas.ts";
import { availabilityInput, createMeetingTypeInput, updateMeetingTypeInput } from "./schemas.ts";
import { availability, createMeetingType, deleteMeetingType, meetingTypes, setAvailability, updateMeetingType } from "./service.ts";

/** The firm's availability and meeting types, mounted in the admin router. */
export const availabilityAdminProcedures = {
  availability: adminProcedure.query(({ ctx }) => availability(ctx)),
  setAvailability: adminProcedure.input(availabilityInput).mutation(({ ctx, input }) => setAvailability(ctx, input)),
  meetingTypes: adminProcedure.query(({ ctx }) => meetingTypes(ctx)),
  createMeetingType: adminProcedure.input(createMeetingTypeInput).mutation(({ ctx, input }) => createMeetingType(ctx, input)),
  updateMeetingType: adminProcedure.input(updateMeetingTypeInput).mutation(({ ctx, input }) => updateMeetingType(ctx, input)),
  deleteMeetingType: adminProcedure.input(idInput).mutation(({ ctx, input }) => deleteMeetingType(ctx, input)),
};
