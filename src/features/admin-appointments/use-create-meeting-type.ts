import { toast } from "sonner";
import { errorDetail } from "@/lib/api-error.ts";
import { trpc } from "@/lib/trpc.ts";

export function useCreateMeetingType() {
  const utils = trpc.useUtils();
  return trpc.admin.availability.createMeetingType.useMutation({
    onSuccess: async () => {
      toast.success("Meeting type added");
      await utils.admin.availability.meetingTypes.invalidate();
    },
    onError: (err) => {
      toast.error(errorDetail(err) ?? "Failed to add the meeting type");
    },
  });
}
