import { trpc } from "@/lib/trpc.ts";

export function useUpdateRegistrationSetting() {
  const utils = trpc.useUtils();
  return trpc.admin.updateRegistrationSetting.useMutation({
    onSuccess: async (setting) => {
      utils.admin.registrationSetting.setData(undefined, setting);
      await utils.auth.registration.invalidate();
    },
  });
}
