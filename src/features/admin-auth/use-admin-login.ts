import { useQueryClient } from "@tanstack/react-query";
import { getQueryKey } from "@trpc/react-query";
import { useNavigate } from "react-router";
import { toast } from "sonner";
import { errorDetail } from "@/lib/api-error.ts";
import { secondStepOf, type SignInStep } from "@/lib/sign-in-step.ts";
import { trpc } from "@/lib/trpc.ts";

/**
 * Signs in through the admin login; the new session replaces any other in the cookie. An admin's
 * password is followed by a second step (`onSecondStep`), after which `signedIn` finishes.
 */
export function useAdminLogin(returnTo: string, onSecondStep: (step: SignInStep) => void) {
  const utils = trpc.useUtils();
  const queryClient = useQueryClient();
  const navigate = useNavigate();

  async function signedIn() {
    // Admin data (or refusals) cached under a previous session are not this session's answers.
    queryClient.removeQueries({ queryKey: getQueryKey(trpc.admin) });
    await utils.auth.session.invalidate();
    toast.success("Admin login successful!");
    await navigate(returnTo);
  }

  const login = trpc.admin.login.useMutation({
    onSuccess: async (result) => {
      const next = secondStepOf(result);
      if (next) onSecondStep(next);
      else await signedIn();
    },
    onError: (err) => {
      toast.error(errorDetail(err) ?? "Admin login failed");
    },
  });
  return { login, signedIn };
}
