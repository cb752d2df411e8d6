import type { CurrentAccount } from "@server/domains/accounts/schemas.ts";

export const KIND_LABELS: Record<CurrentAccount["kind"], string> = {
  individual: "Individual",
  household: "Household",
  business: "Business",
};
