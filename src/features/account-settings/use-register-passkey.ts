import { useMutation } from "@tanstack/react-query";
import { startRegistration } from "@simplewebauthn/browser";
import { trpc } from "@/lib/trpc.ts";

/**
 * Registers a passkey: options with a fresh challenge from the server, the browser's prompt (the
 * device's lock, or a security key), then the server checks the answer and keeps the passkey.
 */
export function useRegisterPasskey() {
  const utils = trpc.useUtils();
  const options = trpc.account.passkeyRegistrationOptions.useMutation();
  const register = trpc.account.registerPasskey.useMutation();
  return useMutation({
    mutationFn: async (name: string) => {
      const optionsJSON = await options.mutateAsync();
      const response = await startRegistration({ optionsJSON });
      return register.mutateAsync({ name, response });
    },
    onSuccess: () => utils.account.passkeys.invalidate(),
  });
}
