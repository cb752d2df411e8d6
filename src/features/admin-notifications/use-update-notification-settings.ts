import { trpc } from "@/lib/trpc.ts";

export function useUpdateNotificationSettings() {
  const utils = trpc.useUtils();
  return trpc.admin.clients.updateNotificationSettings.useMutation({
    onSuccess: (settings) => utils.admin.clients.notificationSettings.setData(undefined, settings),
  });
}
