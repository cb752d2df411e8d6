import { toast } from "sonner";
import { trpc } from "@/lib/trpc.ts";

/** Creates a folder; a refusal is the form's to show (a duplicate name on the name field). */
export function useCreateFolder({ onCreated }: { onCreated: () => void }) {
  const utils = trpc.useUtils();
  return trpc.folders.create.useMutation({
    onSuccess: async () => {
      toast.success("Folder created successfully", { id: "create-folder" });
      onCreated();
      await utils.folders.list.invalidate();
    },
  });
}
