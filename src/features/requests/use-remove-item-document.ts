import { toast } from "sonner";
import { errorDetail } from "@/lib/api-error.ts";
import { trpc } from "@/lib/trpc.ts";

/** Takes a wrong file off an item of the client's request; it goes to their trash (restorable there), unless their organizer keeps it. */
export function useRemoveItemDocument() {
  const utils = trpc.useUtils();
  return trpc.requests.removeItemDocument.useMutation({
    onSuccess: (request) =>
      toast.success(
        request.removed_to_trash ? "File removed. It is in your trash if you need it back." : "File removed from the item. Your organizer keeps it.",
      ),
    onError: (err) => toast.error(errorDetail(err) ?? "Failed to remove the file"),
    onSettled: () => Promise.all([utils.requests.list.invalidate(), utils.documents.invalidate(), utils.activity.list.invalidate()]),
  });
}
