import { toast } from "sonner";
import { errorDetail } from "@/lib/api-error.ts";
import { trpc } from "@/lib/trpc.ts";

/** The firm's request templates, by title. */
export function useRequestTemplates() {
  return trpc.admin.requestTemplates.useQuery();
}

export function useCreateRequestTemplate() {
  const utils = trpc.useUtils();
  return trpc.admin.createRequestTemplate.useMutation({
    onSuccess: async (template) => {
      toast.success(`Template “${template.title}” saved`);
      await utils.admin.requestTemplates.invalidate();
    },
    onError: (err) => toast.error(errorDetail(err) ?? "Failed to save the template"),
  });
}

export function useUpdateRequestTemplate() {
  const utils = trpc.useUtils();
  return trpc.admin.updateRequestTemplate.useMutation({
    onSuccess: async (template) => {
      toast.success(`Template “${template.title}” saved`);
      await utils.admin.requestTemplates.invalidate();
    },
    onError: (err) => toast.error(errorDetail(err) ?? "Failed to save the template"),
  });
}

export function useDeleteRequestTemplate() {
  const utils = trpc.useUtils();
  return trpc.admin.deleteRequestTemplate.useMutation({
    onSuccess: async () => {
      toast.success("Template deleted");
      await utils.admin.requestTemplates.invalidate();
    },
    onError: (err) => toast.error(errorDetail(err) ?? "Failed to delete the template"),
  });
}
