import { trpc } from "@/lib/trpc.ts";

export function useUpdateNotificationSettings() {
  const utils = trpc.useUtils();
  return trpc.admin.updateNotificationSettings.useMutation({
    onSuccess: (settings) => utils.admin.notificationSettings.setData(undefined, settings),
  });
}
