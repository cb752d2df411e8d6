import { trpc } from "@/lib/trpc.ts";

/** Whether the Register tab offers its form ("open") or says registration is by invitation only; undefined while it is asked. */
export function useRegistrationMode() {
  return trpc.auth.registration.useQuery(undefined, { staleTime: 60_000 }).data?.registration;
}
