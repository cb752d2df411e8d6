import { Copy, Download } from "lucide-react";
import { toast } from "sonner";
import { Button } from "@/components/ui/button.tsx";

/**
 * Backup codes as the server answered them, shown this once: each signs in once when the phone is
 * not at hand. Copy and Download keep them; nothing can show them again.
 */
export function BackupCodes({ codes, firmName = "Client Portal" }: { codes: string[]; firmName?: string }) {
  const text = codes.join("\n");

  async function copy() {
    try {
      await navigator.clipboard.writeText(text);
      toast.success("Backup codes copied.");
    } catch {
      toast.error("Copying did not work: select the codes and copy them, or download them.");
    }
  }

  function download() {
    const file = new Blob([`Backup codes for ${firmName}. Each code works once.\n\n${text}\n`], { type: "text/plain" });
    const url = URL.createObjectURL(file);
    const link = document.createElement("a");
    link.href = url;
    link.download = "backup-codes.txt";
    link.click();
    URL.revokeObjectURL(url);
  }

  return (
    <section aria-labelledby="backup-codes-heading" className="grid gap-3 rounded-lg border border-accent/30 bg-accent-soft/40 p-4">
      <h3 id="backup-codes-heading" className="font-semibold">
        Save your backup codes
      </h3>
      <p className="text-sm text-muted-foreground">
        Each code signs you in once if your phone is not at hand. They are shown only now: copy or download them and keep them somewhere safe.
      </p>
      <ul aria-label="Backup codes" className="grid grid-cols-2 gap-x-4 gap-y-1 font-mono text-sm tabular-nums sm:grid-cols-3">
        {codes.map((code) => (
          <li key={code}>{code}</li>
        ))}
      </ul>
      <div className="flex flex-wrap gap-2">
        <Button variant="outline" size="sm" onClick={() => void copy()}>
          <Copy aria-hidden="true" />
          Copy codes
        </Button>
        <Button variant="outline" size="sm" onClick={download}>
          <Download aria-hidden="true" />
          Download codes
        </Button>
      </div>
    </section>
  );
}
