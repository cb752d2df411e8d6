import { type FormEvent, useDeferredValue, useId, useState } from "react";
import { keepPreviousData } from "@tanstack/react-query";
import { SquarePen } from "lucide-react";
import { Button } from "@/components/ui/button.tsx";
import { FormDialog, FormDialogFooter } from "@/components/ui/form-dialog.tsx";
import { Input } from "@/components/ui/input.tsx";
import { Label } from "@/components/ui/label.tsx";
import { Spinner } from "@/components/ui/spinner.tsx";
import { Textarea } from "@/components/ui/textarea.tsx";
import { errorDetail } from "@/lib/api-error.ts";
import { cn } from "@/lib/cn.ts";
import { trpc } from "@/lib/trpc.ts";

const PICKER_SIZE = 8;

/**
 * The firm starts a conversation: a client account picked by name, person or email (only the
 * accounts the asker reaches are offered, as the server's list is scoped), and the first message of
 * that account's thread. `onSent` opens the conversation.
 */
export function NewMessageDialog({ onSent }: { onSent: (accountId: string) => void }) {
  const [open, setOpen] = useState(false);
  const [search, setSearch] = useState("");
  const [chosen, setChosen] = useState<{ id: string; name: string } | null>(null);
  const [text, setText] = useState("");
  const [problem, setProblem] = useState<string | null>(null);
  const q = useDeferredValue(search.trim());
  const accounts = trpc.admin.accounts.list.useQuery(
    { q: q || undefined, limit: PICKER_SIZE },
    { enabled: open, placeholderData: keepPreviousData, retry: false },
  );
  const utils = trpc.useUtils();
  const send = trpc.admin.messages.send.useMutation({
    onSuccess: () => Promise.all([utils.admin.messages.conversations.invalidate(), utils.admin.messages.list.invalidate()]),
  });
  const ids = { search: useId(), text: useId(), list: useId() };

  const reset = (next: boolean) => {
    setOpen(next);
    if (!next) {
      setSearch("");
      setChosen(null);
      setText("");
      setProblem(null);
    }
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!chosen) return setProblem("Choose a client");
    if (!text.trim()) return setProblem("Write a message or attach a document");
    send.mutate(
      { account_id: chosen.id, text },
      {
        onSuccess: () => {
          reset(false);
          onSent(chosen.id);
        },
        onError: (err) => setProblem(errorDetail(err) ?? "Failed to send the message. Please try again."),
      },
    );
  };

  const items = accounts.data?.items ?? [];
  return (
    <FormDialog
      open={open}
      onOpenChange={reset}
      trigger={
        <Button size="sm">
          <SquarePen aria-hidden="true" />
          New message
        </Button>
      }
      className="max-w-lg"
      title="New message"
      description="Start a conversation with a client. They are told by email if they have not read it within 5 minutes."
      onSubmit={submit}
      formLabel="New message"
      formClassName="grid min-w-0 gap-4"
    >
      <fieldset className="grid min-w-0 gap-2">
        <legend className="mb-2 text-sm font-medium">Client</legend>
        <Label htmlFor={ids.search} className="sr-only">
          Search clients
        </Label>
        <Input
          id={ids.search}
          type="search"
          autoComplete="off"
          placeholder="Search by name or email"
          value={search}
          aria-controls={ids.list}
          onChange={(event) => setSearch(event.target.value)}
        />
        <div id={ids.list} className="max-h-56 overflow-y-auto rounded-md border">
          {accounts.isPending ? (
            <Spinner label="Loading clients…" className="w-full justify-center py-4" />
          ) : items.length === 0 ? (
            <p className="p-3 text-sm text-muted-foreground">No clients match your search.</p>
          ) : (
            <ul className="divide-y" aria-label="Clients">
              {items.map((account) => {
                const people = account.contacts.map((c) => c.name).filter((name) => name && name !== account.name);
                return (
                  <li key={account.id}>
                    <label
                      className={cn(
                        "flex min-h-11 cursor-pointer items-center gap-3 px-3 py-2 hover:bg-muted/60",
                        chosen?.id === account.id && "bg-muted",
                      )}
                    >
                      <input
                        type="radio"
                        name="new-message-client"
                        className="size-4 accent-primary"
                        checked={chosen?.id === account.id}
                        onChange={() => setChosen({ id: account.id, name: account.name })}
                      />
                      <span className="grid min-w-0">
                        <span className="truncate font-medium">{account.name}</span>
                        {people.length > 0 && <span className="truncate text-sm text-muted-foreground">{people.join(", ")}</span>}
                      </span>
                    </label>
                  </li>
                );
              })}
            </ul>
          )}
        </div>
      </fieldset>
      <div className="grid gap-2">
        <Label htmlFor={ids.text}>{chosen ? `Message to ${chosen.name}` : "Message"}</Label>
        <Textarea id={ids.text} rows={4} maxLength={10_000} value={text} onChange={(event) => setText(event.target.value)} />
      </div>
      <FormDialogFooter problem={problem} pending={send.isPending} submitLabel="Send message" pendingLabel="Sending…" />
    </FormDialog>
  );
}
