import { trpc } from "@/lib/trpc.ts";

/** Registration does not sign in (the visitor logs in next), so no list changes. */
export function useRegister() {
  return trpc.auth.register.useMutation();
}
