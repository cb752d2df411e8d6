import { toast } from "sonner";
import { errorDetail } from "@/lib/api-error.ts";
import { trpc } from "@/lib/trpc.ts";

/** Takes a wrong file off an item of the client's request; it goes to their trash (restorable there). */
export function useRemoveItemDocument() {
  const utils = trpc.useUtils();
  return trpc.requests.removeItemDocument.useMutation({
    onSuccess: () => toast.success("File removed. It is in your trash if you need it back."),
    onError: (err) => toast.error(errorDetail(err) ?? "Failed to remove the file"),
    onSettled: () => Promise.all([utils.requests.list.invalidate(), utils.documents.invalidate(), utils.activity.list.invalidate()]),
  });
}
