import { trpc } from "@/lib/trpc.ts";

export function useNotificationSettings() {
  return trpc.admin.clients.notificationSettings.useQuery();
}
