import { trpc } from "@/lib/trpc.ts";

export function useUpdateActivitySettings() {
  const utils = trpc.useUtils();
  return trpc.admin.updateActivitySettings.useMutation({
    onSuccess: (settings) => utils.admin.activitySettings.setData(undefined, settings),
  });
}
