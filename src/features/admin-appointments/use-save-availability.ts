import { toast } from "sonner";
import { errorDetail } from "@/lib/api-error.ts";
import { trpc } from "@/lib/trpc.ts";

export function useSaveAvailability() {
  const utils = trpc.useUtils();
  return trpc.admin.availability.set.useMutation({
    onSuccess: (saved) => {
      toast.success("Availability saved");
      utils.admin.availability.get.setData(undefined, saved);
    },
    onError: (err) => {
      toast.error(errorDetail(err) ?? "Failed to save the availability");
    },
  });
}
