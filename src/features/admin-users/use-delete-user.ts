import { toast } from "sonner";
import { errorDetail } from "@/lib/api-error.ts";
import { trpc } from "@/lib/trpc.ts";

/** Deleting a user removes their documents, folders and appointments too, so every admin list changes. */
export function useDeleteUser() {
  const utils = trpc.useUtils();
  return trpc.admin.deleteUser.useMutation({
    onSuccess: async () => {
      toast.success("User deleted successfully");
      await utils.admin.invalidate();
    },
    onError: (err) => {
      toast.error(errorDetail(err) ?? "Failed to delete user");
    },
  });
}
