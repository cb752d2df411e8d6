import { useState } from "react";
import { Pencil } from "lucide-react";
import { toast } from "sonner";
import type { StaffMember, StaffRight } from "@server/domains/staff/schemas.ts";
import { Button } from "@/components/ui/button.tsx";
import { DialogFrame, FormDialogFooter } from "@/components/ui/form-dialog.tsx";
import { FormAlert } from "@/components/ui/form-alert.tsx";
import { FormField } from "@/components/ui/form-field.tsx";
import { Select } from "@/components/ui/select.tsx";
import { errorDetail } from "@/lib/api-error.ts";
import { RightsFieldset } from "./rights-fieldset.tsx";
import { useUpdateStaff } from "./use-staff.ts";

/** A person's role (when the caller may give it) and rights. */
export function EditStaffDialog({ member, mayChangeRole }: { member: StaffMember; mayChangeRole: boolean }) {
  const [open, setOpen] = useState(false);
  const [role, setRole] = useState<"admin" | "staff">(member.role === "admin" ? "admin" : "staff");
  const [rights, setRights] = useState<StaffRight[]>(member.rights);
  const [problem, setProblem] = useState<string | null>(null);
  const update = useUpdateStaff();

  function openChange(next: boolean) {
    if (next) {
      setRole(member.role === "admin" ? "admin" : "staff");
      setRights(member.rights);
      setProblem(null);
    }
    setOpen(next);
  }

  function save() {
    update.mutate(
      { id: member.id, ...(mayChangeRole ? { role } : {}), rights: role === "staff" ? rights : [] },
      {
        onSuccess: () => {
          toast.success(`${member.name} updated.`);
          setOpen(false);
        },
        onError: (err) => setProblem(errorDetail(err) ?? "The change could not be saved."),
      },
    );
  }

  return (
    <DialogFrame
      open={open}
      onOpenChange={openChange}
      trigger={
        <Button variant="outline" size="sm" aria-label={`Edit rights of ${member.name}`}>
          <Pencil aria-hidden="true" />
          Edit rights
        </Button>
      }
      className="max-w-lg"
      title={<>Rights of {member.name}</>}
      description="A change holds from their next click; an admin may do everything but transfer ownership."
    >
      <div className="grid gap-4">
        {mayChangeRole && (
          <FormField id={`staff-role-${member.id}`} label="Role">
            <Select value={role} onChange={(e) => setRole(e.target.value as "admin" | "staff")}>
              <option value="staff">Staff: the rights ticked below</option>
              <option value="admin">Admin: everything but ownership</option>
            </Select>
          </FormField>
        )}
        {role === "staff" && <RightsFieldset idPrefix={`staff-right-${member.id}`} value={rights} onChange={setRights} />}
        <FormAlert message={problem} />
      </div>
      <FormDialogFooter pending={update.isPending} submitLabel="Save" pendingLabel="Saving..." onClick={save} />
    </DialogFrame>
  );
}
