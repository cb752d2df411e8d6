import { toast } from "sonner";
import { errorDetail } from "@/lib/api-error.ts";
import { trpc } from "@/lib/trpc.ts";

/** Marks an item of a request's checklist done or reopens it (the client is emailed when it reopens). */
export function useUpdateRequestItem() {
  const utils = trpc.useUtils();
  return trpc.admin.requests.updateItem.useMutation({
    onSuccess: async (request, input) => {
      const item = request.items.find((i) => i.id === input.item_id);
      toast.success(input.status === "done" ? `“${item?.title ?? "Item"}” marked done` : `“${item?.title ?? "Item"}” reopened`);
      await utils.admin.requests.list.invalidate();
    },
    onError: (err) => toast.error(errorDetail(err) ?? "Failed to update the item"),
  });
}
