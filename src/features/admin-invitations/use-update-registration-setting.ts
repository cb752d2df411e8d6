import { trpc } from "@/lib/trpc.ts";

export function useUpdateRegistrationSetting() {
  const utils = trpc.useUtils();
  return trpc.admin.invitations.updateRegistration.useMutation({
    onSuccess: async (setting) => {
      utils.admin.invitations.registration.setData(undefined, setting);
      await utils.auth.registration.invalidate();
    },
  });
}
