import { MailCheck } from "lucide-react";
import { useEffect } from "react";
import { toast } from "sonner";
import { Button } from "@/components/ui/button.tsx";
import { errorDetail } from "@/lib/api-error.ts";
import { trpc } from "@/lib/trpc.ts";
import { useResendVerification } from "./use-resend-verification.ts";
import { VERIFICATION_CHANNEL } from "./verify-email-link.ts";

/**
 * Shown in the client portal until the user's address is verified. The link opens in another tab
 * (which says so over a BroadcastChannel) or on another device (this tab then regains focus at
 * some point): either way the session is checked again, and the banner goes once it says verified.
 */
export function VerifyEmailBanner({ email }: { email: string }) {
  const utils = trpc.useUtils();
  const resend = useResendVerification();

  useEffect(() => {
    const recheck = () => void utils.auth.session.invalidate();
    const channel = new BroadcastChannel(VERIFICATION_CHANNEL);
    channel.addEventListener("message", recheck);
    window.addEventListener("focus", recheck);
    return () => {
      channel.close();
      window.removeEventListener("focus", recheck);
    };
  }, [utils]);

  const send = () =>
    resend.mutate(undefined, {
      onSuccess: () => toast.success(`We sent a new link to ${email}.`),
      onError: (err) => toast.error(errorDetail(err) ?? "The link could not be sent. Please try again."),
    });

  return (
    <section
      aria-labelledby="verify-email-title"
      className="flex flex-col gap-3 rounded-xl border border-accent/25 bg-accent-soft/60 p-4 sm:flex-row sm:items-center sm:gap-4 sm:p-5"
    >
      <div className="flex min-w-0 grow items-start gap-3 sm:items-center sm:gap-4">
        <span className="grid size-10 shrink-0 place-items-center rounded-full bg-accent-soft text-accent-soft-foreground">
          <MailCheck aria-hidden="true" className="size-5" />
        </span>
        <div className="grid min-w-0 gap-1">
          <h2 id="verify-email-title" className="font-semibold">
            Verify your email
          </h2>
          <p className="text-sm text-muted-foreground">
            We sent a link to <span className="font-medium break-words text-foreground">{email}</span>. Open it to confirm the address is yours.
          </p>
        </div>
      </div>
      <Button variant="outline" size="sm" onClick={send} disabled={resend.isPending} className="ml-13 self-start sm:ml-0 sm:self-center">
        {resend.isPending ? "Sending..." : "Resend link"}
      </Button>
    </section>
  );
}
