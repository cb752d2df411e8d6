import { Progress } from "@/components/ui/progress.tsx";
import { formatStorageSize, usedPercent } from "@/lib/storage-size.ts";
import { useStorageUsage } from "./use-storage-usage.ts";

/** "1.2 GB of 5 GB" over a thin bar; when the quota is used up it says what the client can do. */
export function StorageUsage() {
  const usage = useStorageUsage();
  // Spec: a failed load is only logged (by the hook); the rest of the page works without it.
  if (!usage.data) return null;
  const { used_bytes: used, quota_bytes: quota } = usage.data;
  const text = `${formatStorageSize(used)} of ${formatStorageSize(quota)}`;
  const full = used >= quota;

  return (
    <section aria-label="Storage" data-testid="storage-usage" className="grid w-full max-w-sm gap-1.5">
      <p className="flex items-baseline justify-between gap-3 text-sm">
        <span className="text-muted-foreground">Storage used</span>
        <span className="font-medium tabular-nums">{text}</span>
      </p>
      <Progress value={usedPercent(used, quota)} aria-label="Storage used" getValueLabel={() => text} className="h-1.5" />
      {full && <p className="text-sm text-destructive">Your storage is full. Delete documents you no longer need, or ask us for more space.</p>}
    </section>
  );
}
