import { trpc } from "@/lib/trpc.ts";

export function useActivitySettings() {
  return trpc.admin.activity.settings.useQuery();
}
