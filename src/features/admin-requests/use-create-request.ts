import { toast } from "sonner";
import { errorDetail } from "@/lib/api-error.ts";
import { trpc } from "@/lib/trpc.ts";

/** Asks a client for documents; the client is emailed. */
export function useCreateRequest() {
  const utils = trpc.useUtils();
  return trpc.admin.requests.create.useMutation({
    onSuccess: async (request) => {
      toast.success(`Request sent to ${request.client_name}`);
      await utils.admin.requests.list.invalidate();
    },
    onError: (err) => toast.error(errorDetail(err) ?? "Failed to create the request"),
  });
}
