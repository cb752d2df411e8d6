import { type FormEvent, useState } from "react";
import { UserMinus, UserPlus, Users } from "lucide-react";
import { toast } from "sonner";
import { HouseholdRoleSelect, type HouseholdRoleValue, householdRoleLabel } from "@/components/household-role-select.tsx";
import { Badge } from "@/components/ui/badge.tsx";
import { Button } from "@/components/ui/button.tsx";
import { ConfirmAction } from "@/components/ui/confirm-action.tsx";
import { FormAlert } from "@/components/ui/form-alert.tsx";
import { FormField } from "@/components/ui/form-field.tsx";
import { Input } from "@/components/ui/input.tsx";
import { LoadError } from "@/components/ui/load-error.tsx";
import { Spinner } from "@/components/ui/spinner.tsx";
import { errorDetail } from "@/lib/api-error.ts";
import { formatDate } from "@/lib/format.ts";
import { trpc } from "@/lib/trpc.ts";
import { VERIFY_FIRST } from "@server/domains/account-contacts/messages.ts";
import { SettingsSection } from "./settings-section.tsx";

/**
 * The current client account's people (a spouse, a bookkeeper): every contact sees who they are;
 * an owner invites someone by email and removes people, never the account's only owner. Only an
 * owner whose address is verified may invite (docs/security.md, Round 4): the others are told how.
 */
export function PeopleSection({ userId, emailVerified }: { userId: string; emailVerified: boolean }) {
  const current = trpc.accounts.current.useQuery(undefined, { staleTime: 60_000 });
  const people = trpc.accountContacts.list.useQuery();
  const utils = trpc.useUtils();
  const remove = trpc.accountContacts.remove.useMutation({
    onSuccess: () => utils.accountContacts.list.invalidate(),
  });
  const updateRole = trpc.accountContacts.updateRole.useMutation({
    onSuccess: () => utils.accountContacts.list.invalidate(),
  });
  if (!current.data) return null;
  const isOwner = current.data.role === "owner";
  // A household's people are taxpayer, spouse or dependent (docs/decisions.md, "A household person's role").
  const household = current.data.kind === "household";
  const changeRole = (person: { user_id: string; name: string }, household_role: HouseholdRoleValue) =>
    updateRole.mutate(
      { user_id: person.user_id, household_role },
      { onError: (err) => toast.error(errorDetail(err) ?? `The role of ${person.name} was not saved.`) },
    );
  const owners = people.data?.filter((p) => p.role === "owner" && p.status === "joined").length ?? 0;

  return (
    <SettingsSection
      id="people"
      title="People"
      description={`Who can sign in to ${current.data.name}, each with their own login. ${isOwner ? "Invite your spouse, a partner or your bookkeeper here." : "An owner of the account can invite or remove people."}`}
    >
      {people.isPending ? (
        <Spinner label="Loading people…" />
      ) : !people.data ? (
        <LoadError message="The account's people could not be loaded." onRetry={() => void people.refetch()} isRetrying={people.isFetching} />
      ) : (
        <ul aria-label="People" className="divide-y rounded-lg border">
          {people.data.map((person) => (
            <li
              key={person.user_id ?? `invited-${person.email}`}
              aria-label={person.name}
              className="flex flex-wrap items-center justify-between gap-3 p-3"
            >
              <div className="flex min-w-0 items-start gap-3">
                <Users aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-muted-foreground" />
                <div className="min-w-0">
                  <p className="flex flex-wrap items-center gap-2 font-medium">
                    <span className="[overflow-wrap:anywhere]">{person.name}</span>
                    {person.user_id === userId && <Badge variant="success">You</Badge>}
                    <Badge variant="muted">{person.role === "owner" ? "Owner" : "Member"}</Badge>
                    {household && householdRoleLabel(person.household_role) && (
                      <Badge variant="muted">{householdRoleLabel(person.household_role)}</Badge>
                    )}
                  </p>
                  <p className="text-xs text-muted-foreground [overflow-wrap:anywhere]">
                    {person.email} · {person.status === "joined" ? `joined ${formatDate(person.since)}` : `invited ${formatDate(person.since)}`}
                  </p>
                </div>
              </div>
              {isOwner && household && person.user_id && (
                <HouseholdRoleSelect
                  aria-label={`Household role of ${person.name}`}
                  wrapperClassName="w-36"
                  value={person.household_role}
                  disabled={updateRole.isPending}
                  onValue={(role) => changeRole({ user_id: person.user_id!, name: person.name }, role)}
                />
              )}
              {isOwner && person.user_id && !(person.role === "owner" && owners <= 1) && (
                <ConfirmAction
                  trigger={
                    <Button variant="outline" size="sm" disabled={remove.isPending} aria-label={`Remove ${person.name}`}>
                      <UserMinus aria-hidden="true" />
                      Remove
                    </Button>
                  }
                  title={`Remove ${person.name}`}
                  question={`Remove ${person.name} from ${current.data.name}? They stop seeing its documents, requests and messages at once. What they uploaded stays.`}
                  confirmLabel="Remove"
                  onConfirm={() =>
                    remove.mutate(
                      { user_id: person.user_id! },
                      {
                        onSuccess: () => toast.success(`${person.name} was removed.`),
                        onError: (err) => toast.error(errorDetail(err) ?? "That person could not be removed."),
                      },
                    )
                  }
                />
              )}
            </li>
          ))}
        </ul>
      )}
      {isOwner &&
        (emailVerified ? <InviteForm household={household} /> : <p className="border-t pt-4 text-sm text-muted-foreground">{VERIFY_FIRST}</p>)}
    </SettingsSection>
  );
}

function InviteForm({ household }: { household: boolean }) {
  const [name, setName] = useState("");
  const [email, setEmail] = useState("");
  const [householdRole, setHouseholdRole] = useState<HouseholdRoleValue>(null);
  const [error, setError] = useState<string | null>(null);
  const utils = trpc.useUtils();
  const invite = trpc.accountContacts.invite.useMutation();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    if (!name.trim() || !email.trim()) {
      setError("Enter the person's name and email address.");
      return;
    }
    invite.mutate(
      { name: name.trim(), email: email.trim(), ...(householdRole ? { household_role: householdRole } : {}) },
      {
        onSuccess: (person) => {
          toast.success(`Invitation sent to ${person.email}.`);
          setName("");
          setEmail("");
          setHouseholdRole(null);
          void utils.accountContacts.list.invalidate();
        },
        onError: (err) => setError(errorDetail(err) ?? "The invitation could not be sent. Please try again."),
      },
    );
  };

  return (
    <form
      noValidate
      onSubmit={submit}
      aria-label="Invite a person"
      className={`grid gap-3 border-t pt-4 sm:items-end ${household ? "sm:grid-cols-[1fr_1fr_10rem_auto]" : "sm:grid-cols-[1fr_1fr_auto]"}`}
    >
      <FormField id="invite-name" label="Name">
        <Input autoComplete="off" value={name} onChange={(e) => setName(e.target.value)} />
      </FormField>
      <FormField id="invite-email" label="Email">
        <Input type="email" autoComplete="off" value={email} onChange={(e) => setEmail(e.target.value)} />
      </FormField>
      {household && (
        <FormField id="invite-household-role" label="Role in the household">
          <HouseholdRoleSelect value={householdRole} onValue={setHouseholdRole} />
        </FormField>
      )}
      <Button type="submit" disabled={invite.isPending}>
        <UserPlus aria-hidden="true" />
        {invite.isPending ? "Sending…" : "Invite"}
      </Button>
      {error && (
        <div className="sm:col-span-full">
          <FormAlert message={error} />
        </div>
      )}
    </form>
  );
}
