import { toast } from "sonner";
import { errorDetail } from "@/lib/api-error.ts";
import { trpc } from "@/lib/trpc.ts";

const DONE_MESSAGES = { done: "Request marked done", open: "Request reopened", submitted: "Request marked submitted" } as const;

/** Marks a request done, reopens it or sets it submitted, with the firm's comment. */
export function useUpdateRequest() {
  const utils = trpc.useUtils();
  return trpc.admin.requests.update.useMutation({
    onSuccess: async (request) => {
      toast.success(DONE_MESSAGES[request.status]);
      await utils.admin.requests.list.invalidate();
    },
    onError: (err) => toast.error(errorDetail(err) ?? "Failed to update the request"),
  });
}
