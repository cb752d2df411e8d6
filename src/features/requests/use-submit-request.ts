import { toast } from "sonner";
import { errorDetail } from "@/lib/api-error.ts";
import { trpc } from "@/lib/trpc.ts";

/** Marks one of the client's open requests submitted; the firm is told by email. */
export function useSubmitRequest() {
  const utils = trpc.useUtils();
  return trpc.requests.submit.useMutation({
    onSuccess: (request) => toast.success(`“${request.title}” submitted to your firm`),
    onError: (err) => toast.error(errorDetail(err) ?? "Failed to submit the request. Please try again."),
    onSettled: () => utils.requests.list.invalidate(),
  });
}
