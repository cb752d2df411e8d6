import { trpc } from "@/lib/trpc.ts";
import type { ClientSignatureRequest } from "@server/domains/signatures/schemas.ts";

/** The signed-in person's signature requests in the current account. */
export function useOwnSignatureRequests() {
  return trpc.signatures.list.useQuery(undefined, { retry: false });
}

/** One request with the person's own fields and the disclosure to agree to. */
export function useOwnSignatureRequest(id: string) {
  return trpc.signatures.get.useQuery({ id }, { retry: false, refetchOnWindowFocus: false });
}

/** Puts a step's answer (the request as it now stands) in place and refreshes the dashboard's list. */
export function useStoreSignatureRequest() {
  const utils = trpc.useUtils();
  return (next: ClientSignatureRequest) => {
    utils.signatures.get.setData({ id: next.id }, next);
    void utils.signatures.list.invalidate();
  };
}

export function useConsent() {
  const store = useStoreSignatureRequest();
  return trpc.signatures.consent.useMutation({ onSuccess: store });
}

export function useDecline() {
  const store = useStoreSignatureRequest();
  return trpc.signatures.decline.useMutation({ onSuccess: store });
}

export function useStartIdentityCheck() {
  return trpc.signatures.verifyStart.useMutation();
}

export function useCheckIdentity() {
  const utils = trpc.useUtils();
  return trpc.signatures.verify.useMutation({ onSuccess: (_, input) => utils.signatures.get.invalidate({ id: input.id }) });
}

export function useSign() {
  const store = useStoreSignatureRequest();
  return trpc.signatures.sign.useMutation({ onSuccess: store });
}

/** Open, and this person has still to sign or decline. */
export function isWaitingOn(request: ClientSignatureRequest): boolean {
  return (request.status === "sent" || request.status === "partially_signed") && request.me.status === "pending";
}
