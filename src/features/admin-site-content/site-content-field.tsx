import { useEffect, useRef, useState } from "react";
import { Check, RotateCcw } from "lucide-react";
import { Badge } from "@/components/ui/badge.tsx";
import { Button } from "@/components/ui/button.tsx";
import { Input } from "@/components/ui/input.tsx";
import { Label } from "@/components/ui/label.tsx";
import { Textarea } from "@/components/ui/textarea.tsx";
import { errorDetail } from "@/lib/api-error.ts";
import type { SiteContentEditorEntry, SiteSection } from "@server/domains/site/schemas.ts";
import { useResetSiteContent, useUpdateSiteContent } from "./use-update-site-content.ts";

/** How long typing must pause before the field is saved: one update per pause, not per keystroke. */
const SAVE_PAUSE_MS = 600;

type SiteContentFieldProps = {
  section: SiteSection;
  /** Names the section for buttons read out of context ("Reset to default: Hero, Title"). */
  sectionTitle: string;
  fieldKey: string;
  label: string;
  entry: SiteContentEditorEntry;
  multiline?: boolean;
  /** The height of a multiline field, in lines. */
  rows?: number;
  hint?: string;
};

type Status = { kind: "idle" } | { kind: "saving" } | { kind: "saved"; wasEmpty: boolean } | { kind: "reset" } | { kind: "failed"; detail: string };

/**
 * One site-content value as the site shows it (the default is marked), saved after a pause in
 * typing, on leaving the field, and when the field goes away (switching tabs) so nothing typed
 * is lost. It says by itself whether it was saved; an emptied field shows the default again.
 */
export function SiteContentField({ section, sectionTitle, fieldKey, label, entry, multiline = false, rows = 3, hint }: SiteContentFieldProps) {
  const [typed, setTyped] = useState<string | null>(null);
  const [status, setStatus] = useState<Status>({ kind: "idle" });
  const update = useUpdateSiteContent(section, fieldKey);
  const reset = useResetSiteContent(section, fieldKey);
  const unsaved = useRef<string | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  // The latest mutate and save, for the pending timer and the unmount below; refs are written after a
  // render commits, not during it.
  const mutateRef = useRef(update.mutate);
  useEffect(() => {
    mutateRef.current = update.mutate;
  });

  function save() {
    clearTimeout(timer.current);
    const value = unsaved.current;
    if (value === null) return;
    unsaved.current = null;
    setStatus({ kind: "saving" });
    mutateRef.current(
      { section, key: fieldKey, value },
      {
        onSuccess: () => setStatus({ kind: "saved", wasEmpty: value.trim() === "" }),
        onError: (error) => setStatus({ kind: "failed", detail: errorDetail(error) ?? `Failed to update ${section}.${fieldKey}` }),
      },
    );
  }
  const saveRef = useRef(save);
  useEffect(() => {
    saveRef.current = save;
  });

  useEffect(() => () => saveRef.current(), []);

  function change(value: string) {
    setTyped(value);
    setStatus({ kind: "idle" });
    unsaved.current = value;
    clearTimeout(timer.current);
    timer.current = setTimeout(save, SAVE_PAUSE_MS);
  }

  function leave() {
    save();
    // An emptied field shows what the site shows now: the default.
    if (typed !== null && typed.trim() === "") setTyped(null);
  }

  function resetToDefault() {
    clearTimeout(timer.current);
    unsaved.current = null;
    setStatus({ kind: "saving" });
    reset.mutate(
      { section, key: fieldKey },
      {
        onSuccess: () => {
          setTyped(null);
          setStatus({ kind: "reset" });
        },
        onError: (error) => setStatus({ kind: "failed", detail: errorDetail(error) ?? `Failed to update ${section}.${fieldKey}` }),
      },
    );
  }

  const id = `site-${section}-${fieldKey}`;
  const hintId = `${id}-hint`;
  const statusId = `${id}-status`;
  const defaultId = `${id}-default`;
  const errorId = `${id}-error`;
  const value = typed ?? entry.value;
  const showsDefault = typed === null && entry.isDefault;
  const failed = status.kind === "failed";
  const controlProps = {
    id,
    name: `${section}.${fieldKey}`,
    value,
    onChange: (event: { target: { value: string } }) => change(event.target.value),
    onBlur: leave,
    "aria-invalid": failed || undefined,
    "aria-describedby": [showsDefault ? defaultId : null, hint ? hintId : null, statusId, failed ? errorId : null].filter(Boolean).join(" "),
  };

  return (
    <div className="grid gap-2">
      <div className="flex min-h-5 flex-wrap items-center gap-x-2 gap-y-1">
        <Label htmlFor={id}>{label}</Label>
        {showsDefault && (
          <Badge id={defaultId} variant="muted">
            Default
          </Badge>
        )}
        <p id={statusId} aria-live="polite" className="ml-auto text-xs text-muted-foreground">
          <StatusText status={status} name={`${section}.${fieldKey}`} />
        </p>
      </div>
      {multiline ? <Textarea rows={rows} {...controlProps} /> : <Input {...controlProps} />}
      {failed && (
        <p id={errorId} role="alert" className="text-sm text-destructive">
          {status.detail}
        </p>
      )}
      {(hint || !entry.isDefault) && (
        <div className="flex flex-wrap items-start justify-between gap-x-3 gap-y-1">
          {hint ? (
            <p id={hintId} className="text-xs text-muted-foreground">
              {hint}
            </p>
          ) : (
            <span />
          )}
          {!entry.isDefault && (
            <Button
              variant="link"
              className="text-xs"
              disabled={reset.isPending}
              onClick={resetToDefault}
              aria-label={`Reset to default: ${sectionTitle}, ${label}`}
            >
              <RotateCcw aria-hidden="true" className="size-3" />
              Reset to default
            </Button>
          )}
        </div>
      )}
    </div>
  );
}

/** The specification's words for a site-content change: "Updated hero.title", "Failed to update hero.title". */
function StatusText({ status, name }: { status: Status; name: string }) {
  switch (status.kind) {
    case "saving":
      return "Saving…";
    case "saved":
      return (
        <span className="inline-flex items-center gap-1 text-accent-soft-foreground">
          <Check aria-hidden="true" className="size-3.5" />
          {status.wasEmpty ? `Updated ${name}: empty, the site shows the default` : `Updated ${name}`}
        </span>
      );
    case "reset":
      return (
        <span className="inline-flex items-center gap-1 text-accent-soft-foreground">
          <Check aria-hidden="true" className="size-3.5" />
          Updated {name}: default restored
        </span>
      );
    case "failed":
      return <span className="text-destructive">Failed to update {name}</span>;
    default:
      return null;
  }
}
