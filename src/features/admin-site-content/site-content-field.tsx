import { useEffect, useRef, useState } from "react";
import { FormField } from "@/components/ui/form-field.tsx";
import { Input } from "@/components/ui/input.tsx";
import { Textarea } from "@/components/ui/textarea.tsx";
import type { SiteSection } from "../../../server/routers/site/schemas.ts";
import { useUpdateSiteContent } from "./use-update-site-content.ts";

/** How long typing must pause before the field is saved: one update per pause, not per keystroke. */
export const SAVE_PAUSE_MS = 600;

type SiteContentFieldProps = {
  section: SiteSection;
  fieldKey: string;
  label: string;
  storedValue: string | undefined;
  multiline?: boolean;
  hint?: string;
};

/**
 * One site-content value, saved after a pause in typing, on leaving the field, and when the
 * field goes away (switching tabs) so nothing typed is lost. Until the admin types, it shows
 * the stored value as it arrives.
 */
export function SiteContentField({ section, fieldKey, label, storedValue, multiline = false, hint }: SiteContentFieldProps) {
  const [typed, setTyped] = useState<string | null>(null);
  const update = useUpdateSiteContent(section, fieldKey);
  const unsaved = useRef<string | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const mutateRef = useRef(update.mutate);
  mutateRef.current = update.mutate;

  function save() {
    clearTimeout(timer.current);
    if (unsaved.current === null) return;
    mutateRef.current({ section, key: fieldKey, value: unsaved.current });
    unsaved.current = null;
  }
  const saveRef = useRef(save);
  saveRef.current = save;

  useEffect(() => () => saveRef.current(), []);

  function change(value: string) {
    setTyped(value);
    unsaved.current = value;
    clearTimeout(timer.current);
    timer.current = setTimeout(save, SAVE_PAUSE_MS);
  }

  const id = `site-${section}-${fieldKey}`;
  const value = typed ?? storedValue ?? "";
  return (
    <FormField id={id} label={label} hint={hint}>
      {multiline ? (
        <Textarea name={`${section}.${fieldKey}`} rows={3} value={value} onChange={(e) => change(e.target.value)} onBlur={save} />
      ) : (
        <Input name={`${section}.${fieldKey}`} value={value} onChange={(e) => change(e.target.value)} onBlur={save} />
      )}
    </FormField>
  );
}
