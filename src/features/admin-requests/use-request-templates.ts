import { toast } from "sonner";
import { errorDetail } from "@/lib/api-error.ts";
import { trpc } from "@/lib/trpc.ts";

/** The firm's request templates, by title. */
export function useRequestTemplates() {
  return trpc.admin.requests.templates.useQuery();
}

export function useCreateRequestTemplate() {
  const utils = trpc.useUtils();
  return trpc.admin.requests.createTemplate.useMutation({
    onSuccess: async (template) => {
      toast.success(`Template “${template.title}” saved`);
      await utils.admin.requests.templates.invalidate();
    },
    onError: (err) => toast.error(errorDetail(err) ?? "Failed to save the template"),
  });
}

export function useUpdateRequestTemplate() {
  const utils = trpc.useUtils();
  return trpc.admin.requests.updateTemplate.useMutation({
    onSuccess: async (template) => {
      toast.success(`Template “${template.title}” saved`);
      await utils.admin.requests.templates.invalidate();
    },
    onError: (err) => toast.error(errorDetail(err) ?? "Failed to save the template"),
  });
}

export function useDeleteRequestTemplate() {
  const utils = trpc.useUtils();
  return trpc.admin.requests.deleteTemplate.useMutation({
    onSuccess: async () => {
      toast.success("Template deleted");
      await utils.admin.requests.templates.invalidate();
    },
    onError: (err) => toast.error(errorDetail(err) ?? "Failed to delete the template"),
  });
}
