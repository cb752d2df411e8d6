import { toast } from "sonner";
import { errorDetail } from "@/lib/api-error.ts";
import { trpc } from "@/lib/trpc.ts";

export function useDeleteMeetingType() {
  const utils = trpc.useUtils();
  return trpc.admin.availability.deleteMeetingType.useMutation({
    onSuccess: async () => {
      toast.success("Meeting type deleted");
      await utils.admin.availability.meetingTypes.invalidate();
    },
    onError: (err) => {
      toast.error(errorDetail(err) ?? "Failed to delete the meeting type");
    },
  });
}
