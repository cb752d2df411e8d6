import { msg } from "@lingui/core/macro";
import type { MessageDescriptor } from "@lingui/core";
import { Trans, useLingui } from "@lingui/react/macro";
import { useQueryClient } from "@tanstack/react-query";
import { Briefcase, Check, ChevronDown, House, User } from "lucide-react";
import { toast } from "sonner";
import { Button } from "@/components/ui/button.tsx";
import { DropdownMenu, DropdownMenuContent, DropdownMenuItem, DropdownMenuLabel, DropdownMenuTrigger } from "@/components/ui/dropdown-menu.tsx";
import { errorDetail } from "@/lib/api-error.ts";
import { trpc } from "@/lib/trpc.ts";
import type { CurrentAccount } from "@server/domains/accounts/schemas.ts";

const KIND_LABELS: Record<CurrentAccount["kind"], MessageDescriptor> = {
  individual: msg`Individual`,
  household: msg`Household`,
  business: msg`Business`,
};
const KIND_ICONS = { individual: User, household: House, business: Briefcase } as const;

/**
 * The accounts the person reaches, in the top bar once there is more than one (a spouse's household
 * and their own business): choosing one makes it the session's current account, and every cached
 * answer is dropped, so nothing of the account left behind shows in the one chosen.
 */
export function AccountSwitcher() {
  const { i18n, t } = useLingui();
  const accounts = trpc.accounts.list.useQuery(undefined, { staleTime: 60_000 });
  const current = trpc.accounts.current.useQuery(undefined, { staleTime: 60_000, enabled: (accounts.data?.length ?? 0) > 1 });
  const queryClient = useQueryClient();
  const switchAccount = trpc.accounts.switch.useMutation({
    onSuccess: async (account) => {
      await queryClient.resetQueries();
      const name = account.name;
      toast.success(t`Now showing ${name}.`);
    },
    onError: (err) => toast.error(errorDetail(err) ?? t`Could not switch accounts. Please try again.`),
  });

  const list = accounts.data ?? [];
  if (list.length < 2 || !current.data) return null;
  const open = current.data;
  const OpenIcon = KIND_ICONS[open.kind];
  const openName = open.name;
  const openKind = i18n._(KIND_LABELS[open.kind]);
  return (
    <DropdownMenu>
      <DropdownMenuTrigger asChild>
        <Button variant="outline" className="min-w-0 shrink" aria-label={t`Account: ${openName} (${openKind}). Switch account`}>
          <OpenIcon aria-hidden="true" />
          <span className="max-w-32 truncate sm:max-w-48">{open.name}</span>
          <ChevronDown aria-hidden="true" />
        </Button>
      </DropdownMenuTrigger>
      <DropdownMenuContent className="max-w-72" align="end">
        <DropdownMenuLabel>
          <Trans>Switch account</Trans>
        </DropdownMenuLabel>
        {list.map((account) => {
          const Icon = KIND_ICONS[account.kind];
          const isOpen = account.id === open.id;
          return (
            <DropdownMenuItem
              key={account.id}
              disabled={switchAccount.isPending}
              aria-current={isOpen ? "true" : undefined}
              onSelect={() => {
                if (!isOpen) switchAccount.mutate({ account_id: account.id });
              }}
            >
              <Icon aria-hidden="true" />
              <span className="grid min-w-0">
                <span className="truncate font-medium">{account.name}</span>
                <span className="text-xs text-muted-foreground">
                  {i18n._(KIND_LABELS[account.kind])}
                  {account.role === "owner" ? ` · ${t`Owner`}` : ""}
                </span>
              </span>
              {isOpen && <Check aria-hidden="true" className="ml-auto" />}
            </DropdownMenuItem>
          );
        })}
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
