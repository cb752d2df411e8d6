import { Link } from "react-router";
import { Button } from "@/components/ui/button.tsx";
import { Spinner } from "@/components/ui/spinner.tsx";
import type { AccountReach } from "@server/domains/staff/schemas.ts";
import { useAccountReach } from "./use-accounts.ts";

type ClientNotOpenedProps = {
  /** The client the page is about: an account, or a client person (the client page). */
  who: { account_id: string } | { user_id: string };
  /** The page's own heading when the client does not exist ("Client account not found"). */
  notFoundTitle: string;
  /** The heading's level: the page's own h1, or an h2 under it. */
  level: 1 | 2;
  back: { to: string; label: string };
};

const ROLE_WORDS = { owner: "the owner", admin: "an admin", staff: "who manages clients" } as const;

/** "Olivia Owner (the owner) or Adam Admin (an admin)": at most three, then "or another of them". */
export function assignerList(assigners: AccountReach["assigners"]): string {
  const named = assigners.slice(0, 3).map((person) => `${person.name} (${ROLE_WORDS[person.role]})`);
  if (assigners.length > 3) named.push("another of them");
  if (named.length === 0) return "the firm's owner";
  return named.length === 1 ? named[0]! : `${named.slice(0, -1).join(", ")} or ${named.at(-1)!}`;
}

/**
 * What an admin page says when its client does not open (404, which every client path answers
 * alike for a missing account and one outside the person's reach): asked once more of the reach
 * check, either that the client is not assigned to this staff member and who can assign it to them,
 * or that there is no such client.
 */
export function ClientNotOpened({ who, notFoundTitle, level, back }: ClientNotOpenedProps) {
  const reach = useAccountReach(who);
  const Heading = level === 1 ? "h1" : "h2";
  const headingClass = level === 1 ? "text-xl font-semibold" : "text-lg font-semibold";

  if (reach.isPending) return <Spinner label="Loading…" className="justify-center py-10" />;
  const assigners = reach.data?.reach === "not_assigned" ? reach.data.assigners : null;
  return (
    <div className="grid justify-items-start gap-3 rounded-xl border bg-card p-6">
      {assigners ? (
        <>
          <Heading className={headingClass}>This client is not assigned to you</Heading>
          <p className="max-w-prose text-sm text-muted-foreground">
            You see the clients assigned to you. To work on this one, ask {assignerList(assigners)} to assign it to you: they can do it on the
            client&apos;s page, under Assigned to.
          </p>
        </>
      ) : (
        <>
          <Heading className={headingClass}>{notFoundTitle}</Heading>
          <p className="text-sm text-muted-foreground">It may have been deleted, or the link is incomplete.</p>
        </>
      )}
      <Button asChild variant="outline">
        <Link to={back.to}>{back.label}</Link>
      </Button>
    </div>
  );
}
