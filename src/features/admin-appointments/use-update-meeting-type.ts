import { toast } from "sonner";
import { errorDetail } from "@/lib/api-error.ts";
import { trpc } from "@/lib/trpc.ts";

export function useUpdateMeetingType() {
  const utils = trpc.useUtils();
  return trpc.admin.availability.updateMeetingType.useMutation({
    onSuccess: async () => {
      toast.success("Meeting type saved");
      await utils.admin.availability.meetingTypes.invalidate();
    },
    onError: (err) => {
      toast.error(errorDetail(err) ?? "Failed to save the meeting type");
    },
  });
}
