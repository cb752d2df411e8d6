import { type FormEvent, useState } from "react";
import { BadgeCheck, Pencil, Plus, Quote, Trash2 } from "lucide-react";
import { Badge } from "@/components/ui/badge.tsx";
import { Button } from "@/components/ui/button.tsx";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card.tsx";
import { FormField } from "@/components/ui/form-field.tsx";
import { Input } from "@/components/ui/input.tsx";
import { LoadError } from "@/components/ui/load-error.tsx";
import { Spinner } from "@/components/ui/spinner.tsx";
import { Textarea } from "@/components/ui/textarea.tsx";
import { isRetryableAdminLoadError } from "@/lib/admin-load-failure.ts";
import { errorDetail } from "@/lib/api-error.ts";
import { type Testimonial, testimonialSchema } from "@server/domains/site/schemas.ts";
import { useStoredTestimonials } from "./use-stored-testimonials.ts";
import { useUpdateTestimonials } from "./use-update-testimonials.ts";

type Editing = { index: number; values: Testimonial; isNew: boolean; errors: Partial<Record<keyof Testimonial, string>> };

/**
 * The carousel's testimonials, starting from what the carousel shows: the stored list, or the
 * built-in one. One in edit mode at a time, cancellable; Delete and Confirm store the list at once;
 * Save all stores the whole list. Until the admin changes something the list follows the server.
 * A built-in quote is marked Sample until the firm edits or confirms it (docs/site-content.md,
 * Testimonials): adding a quote of the firm's own leaves the samples samples.
 */
export function TestimonialEditor() {
  const stored = useStoredTestimonials();
  const save = useUpdateTestimonials();
  const [draft, setDraft] = useState<Testimonial[] | null>(null);
  const [editing, setEditing] = useState<Editing | null>(null);
  const list = draft ?? stored.testimonials;
  const samples = list.filter((item) => item.sample === true).length;

  function persist(testimonials: Testimonial[]) {
    setDraft(testimonials);
    save.mutate({ testimonials }, { onSuccess: () => setDraft(null) });
  }

  function startEdit(index: number) {
    const item = list[index];
    if (item) setEditing({ index, values: { ...item }, isNew: false, errors: {} });
  }

  function add() {
    setDraft([...list, { text: "", author: "", business: "" }]);
    setEditing({ index: list.length, values: { text: "", author: "", business: "" }, isNew: true, errors: {} });
  }

  function cancelEdit() {
    if (editing?.isNew) setDraft(list.filter((_, i) => i !== editing.index));
    setEditing(null);
  }

  /** The list with the open edit applied, or null (and the errors shown) when it is not valid. */
  function applyEdit(): Testimonial[] | null {
    if (!editing) return list;
    const parsed = testimonialSchema.safeParse(editing.values);
    if (!parsed.success) {
      const errors: Editing["errors"] = {};
      for (const issue of parsed.error.issues) {
        const field = issue.path[0] as keyof Testimonial;
        errors[field] ??= issue.message;
      }
      setEditing({ ...editing, errors });
      return null;
    }
    // Edited words are the firm's own; a sample left as it was stays a sample.
    const before = list[editing.index];
    const same =
      before !== undefined && (["text", "author", "business"] as const).every((k) => (before[k] ?? "").trim() === (parsed.data[k] ?? "").trim());
    const { sample: _sample, ...words } = parsed.data;
    const edited = same ? before : words;
    const next = list.map((item, i) => (i === editing.index ? edited : item));
    setDraft(next);
    setEditing(null);
    return next;
  }

  function remove(index: number) {
    persist(list.filter((_, i) => i !== index));
  }

  /** A sample the firm confirms a client really said, and may publish as its own. */
  function confirm(index: number) {
    persist(list.map((item, i) => (i === index ? { ...item, sample: false } : item)));
  }

  function saveAll() {
    const next = applyEdit();
    if (next) persist(next);
  }

  return (
    <Card>
      <CardHeader className="sm:flex-row sm:items-start sm:justify-between">
        <div className="grid gap-1.5">
          <CardTitle asChild>
            <h2>Testimonials</h2>
          </CardTitle>
          <CardDescription>
            {!stored.isLoaded || samples === 0
              ? "Shown in the carousel on the home page."
              : stored.isDefault && !draft
                ? "The carousel on the home page shows these built-in testimonials, each marked Sample: invented quotes, never shown as your clients' words. Add your own, then edit, confirm or delete each sample."
                : samples === list.length
                  ? "Every quote here is a sample: the home page shows them marked as samples. Add your own, then edit, confirm or delete each sample."
                  : `${samples === 1 ? "1 quote is" : `${samples} quotes are`} still a sample: the home page shows only your own. Edit, confirm or delete each sample.`}
          </CardDescription>
        </div>
        <div className="flex flex-wrap gap-2">
          <Button variant="outline" onClick={add} disabled={!stored.isLoaded || editing !== null}>
            <Plus aria-hidden="true" />
            Add testimonial
          </Button>
          <Button onClick={saveAll} disabled={!stored.isLoaded || save.isPending}>
            {save.isPending ? "Saving..." : "Save all"}
          </Button>
        </div>
      </CardHeader>
      <CardContent className="grid gap-3">
        {save.isError && (
          <p role="alert" className="text-sm text-destructive">
            Failed to update testimonials{errorDetail(save.error) ? `: ${errorDetail(save.error)}` : ""}
          </p>
        )}
        {isRetryableAdminLoadError(stored.loadError) ? (
          <LoadError message="Failed to load admin data" onRetry={stored.retry} isRetrying={stored.isRetrying} />
        ) : !stored.isLoaded ? (
          <Spinner label="Loading testimonials…" />
        ) : list.length === 0 ? (
          <p className="text-sm text-muted-foreground">No testimonials. Add one to show it in the carousel.</p>
        ) : (
          <ol className="grid gap-3" aria-label="Testimonials">
            {list.map((item, index) =>
              editing?.index === index ? (
                <li key={index} className="rounded-lg border border-ring/60 bg-background p-4">
                  <TestimonialForm
                    editing={editing}
                    onChange={(values) => setEditing({ ...editing, values })}
                    onDone={applyEdit}
                    onCancel={cancelEdit}
                  />
                </li>
              ) : (
                <li key={index} className="flex flex-col gap-3 rounded-lg border p-4 sm:flex-row sm:items-start sm:justify-between">
                  <figure className="flex min-w-0 gap-3">
                    <Quote aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-accent" />
                    <div className="min-w-0">
                      <blockquote className="text-sm break-words">{item.text}</blockquote>
                      <figcaption className="mt-1.5 text-sm text-muted-foreground">
                        <span className="font-medium text-foreground">{item.author}</span>
                        {item.business && `, ${item.business}`}
                        {item.sample === true && (
                          <Badge variant="muted" className="ml-2 align-middle">
                            Sample
                          </Badge>
                        )}
                      </figcaption>
                    </div>
                  </figure>
                  <div className="flex shrink-0 flex-wrap gap-2">
                    {item.sample === true && (
                      <Button
                        variant="outline"
                        size="sm"
                        disabled={editing !== null || save.isPending}
                        onClick={() => confirm(index)}
                        aria-label={`Confirm the testimonial by ${item.author} as a client's real words`}
                      >
                        <BadgeCheck aria-hidden="true" />
                        Confirm
                      </Button>
                    )}
                    <Button
                      variant="outline"
                      size="sm"
                      disabled={editing !== null}
                      onClick={() => startEdit(index)}
                      aria-label={`Edit testimonial by ${item.author}`}
                    >
                      <Pencil aria-hidden="true" />
                      Edit
                    </Button>
                    <Button
                      variant="ghost-destructive"
                      size="sm"
                      disabled={editing !== null || save.isPending}
                      onClick={() => remove(index)}
                      aria-label={`Delete testimonial by ${item.author}`}
                    >
                      <Trash2 aria-hidden="true" />
                      Delete
                    </Button>
                  </div>
                </li>
              ),
            )}
          </ol>
        )}
      </CardContent>
    </Card>
  );
}

type TestimonialFormProps = {
  editing: Editing;
  onChange: (values: Testimonial) => void;
  onDone: () => void;
  onCancel: () => void;
};

function TestimonialForm({ editing, onChange, onDone, onCancel }: TestimonialFormProps) {
  const { values, errors, index } = editing;
  const idPrefix = `testimonial-${index}`;

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    onDone();
  }

  return (
    <form
      noValidate
      onSubmit={submit}
      onKeyDown={(event) => event.key === "Escape" && onCancel()}
      className="grid gap-4"
      aria-label={editing.isNew ? "New testimonial" : "Edit testimonial"}
    >
      <FormField id={`${idPrefix}-text`} label="Quote" error={errors.text} required>
        <Textarea autoFocus rows={3} value={values.text} onChange={(e) => onChange({ ...values, text: e.target.value })} />
      </FormField>
      <div className="grid gap-4 sm:grid-cols-2">
        <FormField id={`${idPrefix}-author`} label="Author" error={errors.author} required>
          <Input value={values.author} onChange={(e) => onChange({ ...values, author: e.target.value })} />
        </FormField>
        <FormField id={`${idPrefix}-business`} label="Business type" error={errors.business}>
          <Input value={values.business} onChange={(e) => onChange({ ...values, business: e.target.value })} />
        </FormField>
      </div>
      <div className="flex gap-2">
        <Button type="submit" size="sm">
          Done
        </Button>
        <Button type="button" variant="outline" size="sm" onClick={onCancel}>
          Cancel
        </Button>
      </div>
    </form>
  );
}
