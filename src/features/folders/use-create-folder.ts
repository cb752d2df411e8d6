import { toast } from "sonner";
import { errorDetail } from "@/lib/api-error.ts";
import { trpc } from "@/lib/trpc.ts";

export function useCreateFolder({ onCreated }: { onCreated: () => void }) {
  const utils = trpc.useUtils();
  return trpc.folders.create.useMutation({
    onSuccess: async () => {
      toast.success("Folder created successfully");
      onCreated();
      await utils.folders.list.invalidate();
    },
    onError: (err) => {
      toast.error(errorDetail(err) ?? "Failed to create folder");
    },
  });
}
