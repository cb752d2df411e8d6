import { trpc } from "@/lib/trpc.ts";

export function useUpdateActivitySettings() {
  const utils = trpc.useUtils();
  return trpc.admin.activity.updateSettings.useMutation({
    onSuccess: (settings) => utils.admin.activity.settings.setData(undefined, settings),
  });
}
