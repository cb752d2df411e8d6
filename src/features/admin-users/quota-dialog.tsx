import { type FormEvent, useState } from "react";
import { HardDrive } from "lucide-react";
import { Button } from "@/components/ui/button.tsx";
import { FormDialog, FormDialogFooter } from "@/components/ui/form-dialog.tsx";
import { FormField } from "@/components/ui/form-field.tsx";
import { Input } from "@/components/ui/input.tsx";
import { formatStorageSize } from "@/lib/storage-size.ts";
import type { AdminUser } from "@server/domains/admin/schemas.ts";
import { useSetUserQuota } from "./use-set-user-quota.ts";

const MB_PER_GB = 1024;
/** The server's ceiling (10 TB), so the form says so before the request does. */
const MAX_GB = 10 * 1024;

/** The quota is entered in GB, as clients see it ("1.2 GB of 5 GB"), and stored in MB. */
export function QuotaDialog({ user }: { user: AdminUser }) {
  const [open, setOpen] = useState(false);
  const [gigabytes, setGigabytes] = useState("");
  const [error, setError] = useState<string>();
  const setQuota = useSetUserQuota();
  const usage = `${formatStorageSize(user.used_bytes)} of ${formatStorageSize(user.quota_bytes)}`;

  function openChange(next: boolean) {
    if (next) {
      setGigabytes(gigabytesText(user.quota_bytes));
      setError(undefined);
    }
    setOpen(next);
  }

  function save(quota_mb: number | null) {
    setQuota.mutate({ id: user.id, quota_mb }, { onSuccess: () => setOpen(false) });
  }

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const value = Number(gigabytes);
    const megabytes = Math.round(value * MB_PER_GB);
    if (gigabytes.trim() === "" || !Number.isFinite(value) || megabytes < 1) {
      setError("Enter a quota in GB, for example 10");
      return;
    }
    if (value > MAX_GB) {
      setError("A quota can be at most 10240 GB (10 TB)");
      return;
    }
    save(megabytes);
  }

  return (
    <FormDialog
      open={open}
      onOpenChange={openChange}
      trigger={
        <Button variant="outline" size="sm" aria-label={`Change the storage quota of ${user.name}`}>
          <HardDrive aria-hidden="true" />
          Quota
        </Button>
      }
      className="max-w-md"
      title="Storage quota"
      description={
        <>
          {user.name} uses {usage}
          {user.quota_mb === null ? " (the firm's default)." : "."}
        </>
      }
      onSubmit={submit}
    >
      <FormField
        id={`quota-${user.id}`}
        label="Quota in GB"
        hint="Documents already stored stay, even above a lower quota; only new uploads are refused."
        error={error}
        required
      >
        <Input type="number" inputMode="decimal" min="0.001" step="any" value={gigabytes} onChange={(event) => setGigabytes(event.target.value)} />
      </FormField>
      <FormDialogFooter pending={setQuota.isPending} submitLabel="Save" pendingLabel="Saving...">
        {user.quota_mb !== null && (
          <Button variant="ghost" className="sm:mr-auto" disabled={setQuota.isPending} onClick={() => save(null)}>
            Use the default
          </Button>
        )}
      </FormDialogFooter>
    </FormDialog>
  );
}

/** "5", "12.5", and for quotas under 1 GB enough digits that saving them unchanged keeps them. */
function gigabytesText(bytes: number): string {
  const gigabytes = bytes / 1024 ** 3;
  return String(gigabytes >= 1 ? Math.round(gigabytes * 100) / 100 : Number(gigabytes.toPrecision(3)));
}
