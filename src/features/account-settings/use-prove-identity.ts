import { trpc } from "@/lib/trpc.ts";

/** The password or a code, recorded on this session as a fresh proof for the next 10 minutes. */
export function useProveIdentity() {
  return trpc.account.proveIdentity.useMutation();
}
