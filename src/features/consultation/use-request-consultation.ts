import { trpc } from "@/lib/trpc.ts";

/** Sends a consultation request; it changes no list a visitor sees, so nothing is invalidated. */
export function useRequestConsultation() {
  return trpc.consultation.request.useMutation();
}
