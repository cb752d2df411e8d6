import type { ComponentProps } from "react";
import { HOUSEHOLD_ROLE_LABELS, HOUSEHOLD_ROLES } from "@server/domains/accounts/schemas.ts";
import { Select } from "@/components/ui/select.tsx";

export type HouseholdRoleValue = (typeof HOUSEHOLD_ROLES)[number] | null;

/** A household person's role (docs/decisions.md, "A household person's role"): its word, or null when nobody said. */
export function householdRoleLabel(role: HouseholdRoleValue): string | null {
  return role ? HOUSEHOLD_ROLE_LABELS[role] : null;
}

/** Taxpayer, spouse or dependent, or "Not said"; the firm's and the owner's forms alike. */
export function HouseholdRoleSelect({
  value,
  onValue,
  ...props
}: Omit<ComponentProps<typeof Select>, "value" | "onChange" | "children"> & {
  value: HouseholdRoleValue;
  onValue: (role: HouseholdRoleValue) => void;
}) {
  return (
    <Select {...props} value={value ?? ""} onChange={(e) => onValue((e.target.value || null) as HouseholdRoleValue)}>
      <option value="">Not said</option>
      {HOUSEHOLD_ROLES.map((role) => (
        <option key={role} value={role}>
          {HOUSEHOLD_ROLE_LABELS[role]}
        </option>
      ))}
    </Select>
  );
}
