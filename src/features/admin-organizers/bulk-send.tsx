import { type FormEvent, useState } from "react";
import { Send, X } from "lucide-react";
import { toast } from "sonner";
import { accountPeople } from "@/components/account-picker/account-picker.tsx";
import { Button } from "@/components/ui/button.tsx";
import { FormAlert } from "@/components/ui/form-alert.tsx";
import { Input } from "@/components/ui/input.tsx";
import { Spinner } from "@/components/ui/spinner.tsx";
import { errorDetail } from "@/lib/api-error.ts";
import { trpc } from "@/lib/trpc.ts";
import { useDebouncedValue } from "@/lib/use-debounced-value.ts";
import { MAX_BULK_ACCOUNTS } from "@server/domains/organizers/schemas.ts";
import { OrganizerSendFields } from "./send-fields.tsx";

/** How many accounts a search shows to pick from. */
const SHOWN = 50;

/**
 * One template to many client accounts at once (POST /admin/organizers with `account_ids`: each
 * gets its own organizer, mail and trail entry; all or none). Accounts are picked by search and
 * checkbox; the picks stay while the search changes.
 */
export function BulkSend() {
  const utils = trpc.useUtils();
  const templates = trpc.admin.organizers.templates.useQuery(undefined, { retry: false });
  const create = trpc.admin.organizers.create.useMutation();
  const [search, setSearch] = useState("");
  const q = useDebouncedValue(search.trim(), 300);
  const accounts = trpc.admin.accounts.list.useQuery({ q: q || undefined, limit: SHOWN }, { retry: false, placeholderData: (previous) => previous });
  const [picked, setPicked] = useState<ReadonlyMap<string, string>>(new Map());
  const [templateId, setTemplateId] = useState("");
  const [title, setTitle] = useState("");
  const [due, setDue] = useState("");
  const [problem, setProblem] = useState<string | null>(null);

  if (!templates.data || templates.data.length === 0) return null;
  const chosen = templates.data.find((t) => t.id === templateId) ?? templates.data[0]!;
  const shown = accounts.data?.items ?? [];
  const allShownPicked = shown.length > 0 && shown.every((a) => picked.has(a.id));

  const toggle = (id: string, name: string) => {
    setProblem(null);
    setPicked((current) => {
      const next = new Map(current);
      if (next.has(id)) next.delete(id);
      else next.set(id, name);
      return next;
    });
  };
  const toggleShown = () => {
    setProblem(null);
    setPicked((current) => {
      const next = new Map(current);
      for (const a of shown) {
        if (allShownPicked) next.delete(a.id);
        else next.set(a.id, a.name);
      }
      return next;
    });
  };

  const onSend = async (event: FormEvent) => {
    event.preventDefault();
    setProblem(null);
    if (picked.size === 0) {
      setProblem("Choose the clients to send it to");
      return;
    }
    try {
      const result = await create.mutateAsync({
        account_ids: [...picked.keys()],
        template_id: chosen.id,
        title: title.trim() || chosen.name,
        due_date: due || null,
        draft: false,
      });
      const count = "organizers" in result ? result.organizers.length : 1;
      await Promise.all([utils.admin.organizers.list.invalidate(), utils.admin.organizers.templates.invalidate()]);
      toast.success(`“${title.trim() || chosen.name}” sent to ${count === 1 ? "1 client" : `${count} clients`}`);
      setPicked(new Map());
      setTitle("");
      setDue("");
    } catch (err) {
      setProblem(errorDetail(err) ?? "Sending failed");
    }
  };

  return (
    <form noValidate onSubmit={(e) => void onSend(e)} aria-labelledby="bulk-send-heading" className="grid gap-4 rounded-xl border bg-card p-4 sm:p-6">
      <div>
        <h2 id="bulk-send-heading" className="text-xl font-semibold">
          Send to many clients
        </h2>
        <p className="text-sm text-muted-foreground">
          Each client gets their own copy, an email and an Inbox item, pre-filled with last year's answers.
        </p>
      </div>
      <OrganizerSendFields
        templates={templates.data}
        chosen={chosen}
        onTemplate={setTemplateId}
        title={title}
        onTitle={setTitle}
        due={due}
        onDue={setDue}
      />
      <fieldset className="grid gap-2">
        <legend className="mb-2 text-sm font-medium">Clients ({picked.size === 0 ? "none chosen" : `${picked.size} chosen`})</legend>
        {picked.size > 0 && (
          <ul aria-label="Chosen clients" className="flex flex-wrap gap-1.5">
            {[...picked].map(([id, name]) => (
              <li key={id}>
                <Button variant="secondary" size="sm" aria-label={`Unchoose ${name}`} onClick={() => toggle(id, name)}>
                  {name}
                  <X aria-hidden="true" />
                </Button>
              </li>
            ))}
          </ul>
        )}
        <div className="grid gap-2 sm:flex sm:items-center">
          <Input
            type="search"
            aria-label="Search client accounts"
            placeholder="Search client accounts"
            value={search}
            onChange={(e) => setSearch(e.target.value)}
          />
          <Button variant="outline" size="sm" className="shrink-0" disabled={shown.length === 0} onClick={toggleShown}>
            {allShownPicked ? "Unchoose these" : "Choose all shown"}
          </Button>
        </div>
        <div className="max-h-64 overflow-y-auto rounded-md border" aria-busy={accounts.isFetching || undefined}>
          {accounts.isPending ? (
            <div className="p-3">
              <Spinner label="Loading client accounts…" />
            </div>
          ) : shown.length === 0 ? (
            <p className="p-3 text-sm text-muted-foreground">No client accounts match your search.</p>
          ) : (
            <ul aria-label="Client accounts" className="divide-y">
              {shown.map((a) => {
                // The account's people beneath its name: the organizer goes to the account, which they all open.
                const people = accountPeople(a);
                return (
                  <li key={a.id}>
                    <label className="flex min-h-11 cursor-pointer items-center gap-3 px-3 py-2 text-sm hover:bg-muted has-checked:bg-accent-soft sm:min-h-9">
                      <input
                        type="checkbox"
                        className="size-4 shrink-0 accent-accent"
                        checked={picked.has(a.id)}
                        onChange={() => toggle(a.id, a.name)}
                      />
                      <span className="grid min-w-0">
                        <span className="flex min-w-0 items-center gap-2">
                          <span className="min-w-0 break-words">{a.name}</span>
                          {a.kind !== "individual" && (
                            <span className="shrink-0 text-xs text-muted-foreground">{a.kind === "household" ? "Household" : "Business"}</span>
                          )}
                        </span>
                        {people && <span className="break-words text-muted-foreground">{people}</span>}
                      </span>
                    </label>
                  </li>
                );
              })}
            </ul>
          )}
        </div>
        {accounts.data && accounts.data.total > shown.length && (
          <p className="text-xs text-muted-foreground">
            Showing {shown.length} of {accounts.data.total}: search to find the others.
          </p>
        )}
      </fieldset>
      <FormAlert message={problem} />
      <Button type="submit" variant="accent" className="w-fit" disabled={create.isPending || picked.size > MAX_BULK_ACCOUNTS}>
        <Send aria-hidden="true" />
        {create.isPending ? "Sending…" : picked.size > 1 ? `Send to ${picked.size} clients` : "Send organizer"}
      </Button>
    </form>
  );
}
