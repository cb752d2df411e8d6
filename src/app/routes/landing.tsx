import { lazy, Suspense, useCallback, useEffect, useState } from "react";
import { useLocation, useNavigate, useSearchParams } from "react-router";
import { SkipLink } from "@/components/ui/skip-link.tsx";
import { Spinner } from "@/components/ui/spinner.tsx";
import type { PortalTab } from "@/features/auth/client-portal-dialog.tsx";
import { PASSWORD_RESET_DONE } from "@/features/auth/notices.ts";
import { useSignedIn } from "@/features/auth/use-signed-in.ts";
import { EMAIL_CHANGE_CANCEL_PARAM, EMAIL_CHANGE_TOKEN_PARAM, VERIFY_TOKEN_PARAM } from "@/features/auth/link-params.ts";
import { AboutSection } from "@/features/landing/about-section.tsx";
import { ContactSection } from "@/features/landing/contact-section.tsx";
import { HeroSection } from "@/features/landing/hero-section.tsx";
import { readServices } from "@/features/landing/services.ts";
import { ServicesSection } from "@/features/landing/services-section.tsx";
import { SiteFooter } from "@/features/landing/site-footer.tsx";
import { SiteHeader } from "@/features/landing/site-header.tsx";
import { useSiteContent } from "@/features/landing/use-site-content.ts";
import { useNearViewport } from "@/lib/use-near-viewport.ts";
import { RETURN_TO_PARAM, SESSION_ENDED_PARAM } from "@/lib/return-params.ts";
import { hasSeenWelcomeVideo, WELCOME_VIDEO_DELAY_MS } from "@/lib/welcome-video-flag.ts";
import { AUTH_ERROR_PARAM } from "@server/domains/auth/messages.ts";
import { DEFAULT_FIRM_NAME } from "@server/domains/site/public-data.ts";
import type { Service } from "@server/domains/site/schemas.ts";
import type { PublicSiteMedia } from "@server/domains/site-media/schemas.ts";
import { GOOGLE_REFUSAL, INVITE_PARAM, INVITED_EMAIL_ONLY, REGISTRATION_INVITE_ONLY } from "@server/domains/invitations/messages.ts";
import { lazyWithApi } from "../lazy-with-api.tsx";

// Below the fold or behind a click: loaded when needed, so the first paint ships less JavaScript.
const ClientPortalDialog = lazyWithApi(async () => (await import("@/features/auth/client-portal-dialog.tsx")).ClientPortalDialog);
const AcceptInvitationDialog = lazyWithApi(async () => (await import("@/features/auth/accept-invitation-dialog.tsx")).AcceptInvitationDialog);
const ForgotPasswordDialog = lazyWithApi(async () => (await import("@/features/auth/forgot-password-dialog.tsx")).ForgotPasswordDialog);
const WelcomeVideoModal = lazy(() => import("@/features/welcome-video/welcome-video-modal.tsx").then((m) => ({ default: m.WelcomeVideoModal })));
const SiteTestimonials = lazy(() => import("@/features/testimonials/site-testimonials.tsx").then((m) => ({ default: m.SiteTestimonials })));
const ConsultationForm = lazyWithApi(async () => (await import("@/features/consultation/consultation-form.tsx")).ConsultationForm);

const formSpinner = <Spinner label="Loading the consultation form…" className="min-h-[36rem] w-full justify-center" />;

type WelcomeVideoFile = NonNullable<PublicSiteMedia["video"]>;

/** Navigation state that opens the Client Portal dialog on arrival (from the 404 page's header). */
export const OPEN_PORTAL_STATE = { openPortal: true } as const;

/** The landing page's query parameters: a failed Google sign-in (server/rest/google.ts), a reset link, a verification link and an invitation. */
const RESET_TOKEN_PARAM = "reset_token";

/** Each parameter that brings a visitor from one of our emails, a failed Google sign-in or a portal page. */
const ARRIVAL_PARAMS = [
  AUTH_ERROR_PARAM,
  RESET_TOKEN_PARAM,
  VERIFY_TOKEN_PARAM,
  EMAIL_CHANGE_TOKEN_PARAM,
  EMAIL_CHANGE_CANCEL_PARAM,
  INVITE_PARAM,
  SESSION_ENDED_PARAM,
  RETURN_TO_PARAM,
];
const arrivedFromLink = (params: URLSearchParams) => ARRIVAL_PARAMS.some((name) => params.has(name));

export function LandingPage() {
  const site = useSiteContent();
  const signedIn = useSignedIn();
  const navigate = useNavigate();
  const [searchParams, setSearchParams] = useSearchParams();
  const location = useLocation();

  type Portal = { open: boolean; tab: PortalTab; loaded: boolean; key: number; notice?: string; prefill?: string; returnTo?: string };
  const [portal, setPortal] = useState<Portal>({ open: false, tab: "login", loaded: false, key: 0 });
  const [forgot, setForgot] = useState<{ open: boolean; key: number; token: string | undefined }>({ open: false, key: 0, token: undefined });
  const [invitation, setInvitation] = useState<{ open: boolean; key: number; token: string; notice?: string }>({ open: false, key: 0, token: "" });
  // A visitor arriving from one of our emails or a failed Google sign-in is in the middle of something.
  const [welcomeSuppressed] = useState(() => arrivedFromLink(searchParams));

  // A new key remounts the dialog's forms, so a notice or a filled-in username starts fresh.
  const openPortal = useCallback(
    (tab: PortalTab = "login", extra: Pick<Portal, "notice" | "prefill" | "returnTo"> = {}) =>
      setPortal((p) => ({ open: true, tab, loaded: true, key: p.key + 1, ...extra })),
    [],
  );
  const openForgot = useCallback((token?: string) => setForgot((f) => ({ open: true, key: f.key + 1, token })), []);
  const openInvitation = useCallback((token: string, notice?: string) => setInvitation((i) => ({ open: true, key: i.key + 1, token, notice })), []);

  // The router's one-time signals (navigation state here, URL parameters below) open a dialog. They can
  // arrive while this page is already mounted, so they are handled in effects rather than as initial state.
  const arrivedForPortal = (location.state as typeof OPEN_PORTAL_STATE | null)?.openPortal === true;
  useEffect(() => {
    // eslint-disable-next-line react-hooks/set-state-in-effect -- see above
    if (arrivedForPortal) openPortal();
  }, [arrivedForPortal, openPortal]);

  useEffect(() => {
    const authError = searchParams.get(AUTH_ERROR_PARAM);
    const resetToken = searchParams.get(RESET_TOKEN_PARAM);
    const verifyToken = searchParams.get(VERIFY_TOKEN_PARAM);
    const emailChangeToken = searchParams.get(EMAIL_CHANGE_TOKEN_PARAM);
    const emailChangeCancel = searchParams.get(EMAIL_CHANGE_CANCEL_PARAM);
    const sessionEnded = searchParams.has(SESSION_ENDED_PARAM);
    // A portal page opened without a session (a link in an email) sent the visitor here to sign in first.
    const returnTo = searchParams.get(RETURN_TO_PARAM);
    const inviteToken = searchParams.get(INVITE_PARAM);
    if (!arrivedFromLink(searchParams)) return;
    // The code for these rarer arrivals loads when one comes, not with every visit's first load.
    if (sessionEnded || returnTo !== null) {
      void import("@/lib/session-ended.ts").then(({ returnNotice, returnPath, SESSION_ENDED_MESSAGE }) => {
        const path = returnPath(returnTo, "client");
        openPortal("login", { notice: sessionEnded ? SESSION_ENDED_MESSAGE : returnNotice(path), returnTo: path });
      });
    }
    // The id keeps React's development double effects from showing the toast twice.
    // A Google account of another address comes back to its invitation's form, which says so.
    const wrongGoogleAccount = authError === GOOGLE_REFUSAL.otherEmail && inviteToken !== null;
    if (authError !== null && !wrongGoogleAccount) {
      const message = authError === GOOGLE_REFUSAL.inviteOnly ? REGISTRATION_INVITE_ONLY : "Authentication failed. Please try again.";
      void import("sonner").then(({ toast }) => toast.error(message, { id: AUTH_ERROR_PARAM }));
    }
    // eslint-disable-next-line react-hooks/set-state-in-effect -- a router signal, see above
    if (inviteToken) openInvitation(inviteToken, wrongGoogleAccount ? INVITED_EMAIL_ONLY : undefined);
    if (resetToken) openForgot(resetToken);
    if (verifyToken) {
      void Promise.all([import("@/features/auth/verify-email-link.ts").then((m) => m.redeemVerificationLink(verifyToken)), import("sonner")]).then(
        ([outcome, { toast }]) => (outcome.ok ? toast.success : toast.error)(outcome.message, { id: VERIFY_TOKEN_PARAM }),
      );
    }
    if (emailChangeToken) {
      void Promise.all([
        import("@/features/auth/email-change-link.ts").then((m) => m.redeemEmailChangeLink(emailChangeToken)),
        import("sonner"),
      ]).then(([outcome, { toast }]) => (outcome.ok ? toast.success : toast.error)(outcome.message, { id: EMAIL_CHANGE_TOKEN_PARAM }));
    }
    if (emailChangeCancel) {
      void Promise.all([
        import("@/features/auth/email-change-cancel-link.ts").then((m) => m.redeemEmailChangeCancelLink(emailChangeCancel)),
        import("sonner"),
      ]).then(([outcome, { toast }]) => (outcome.ok ? toast.success : toast.error)(outcome.message, { id: EMAIL_CHANGE_CANCEL_PARAM }));
    }
    const rest = new URLSearchParams(searchParams);
    rest.delete(AUTH_ERROR_PARAM);
    rest.delete(RESET_TOKEN_PARAM);
    rest.delete(VERIFY_TOKEN_PARAM);
    rest.delete(EMAIL_CHANGE_TOKEN_PARAM);
    rest.delete(EMAIL_CHANGE_CANCEL_PARAM);
    rest.delete(INVITE_PARAM);
    rest.delete(SESSION_ENDED_PARAM);
    rest.delete(RETURN_TO_PARAM);
    setSearchParams(rest, { replace: true });
  }, [searchParams, setSearchParams, openPortal, openForgot, openInvitation]);

  const [videoShown, setVideoShown] = useState(false);
  const dialogOpen = portal.open || forgot.open || invitation.open || videoShown;
  const firmName = site.value("company", "name");
  const services = readServices(site.value("services", "list"));
  const dashboard = signedIn === "admin" ? "/admin/dashboard" : "/dashboard";
  const accessPortal = () => (signedIn ? void navigate(dashboard) : openPortal());

  return (
    <div id="top" className="flex min-h-dvh flex-col">
      <SkipLink />
      <title>{firmName ? `${firmName} | Accounting, Tax & Business Services` : "Accounting, Tax & Business Services"}</title>
      <SiteHeader
        firmName={firmName}
        logoSrc={site.value("company", "logo")}
        signedIn={signedIn !== null}
        onOpenPortal={() => openPortal()}
        onOpenDashboard={() => void navigate(dashboard)}
      />
      <main id="main" tabIndex={-1} className="grow outline-none">
        <HeroSection content={site.value} isPending={site.isPending} onAccessPortal={accessPortal} />
        <ServicesSection services={services} />
        <AboutSection
          content={site.value}
          isPending={site.isPending}
          testimonials={
            site.media?.testimonials === false ? null : <DeferredTestimonials data={site.value("testimonials", "data")} held={dialogOpen} />
          }
        />
        <ContactSection content={site.value} form={<DeferredConsultationForm services={services} />} />
      </main>
      <SiteFooter content={site.value} />

      <Suspense fallback={null}>
        {portal.loaded && (
          <ClientPortalDialog
            key={`portal-${portal.key}`}
            open={portal.open}
            notice={portal.notice}
            loginPrefill={portal.prefill}
            returnTo={portal.returnTo}
            onOpenChange={(open) => setPortal((p) => ({ ...p, open }))}
            tab={portal.tab}
            onTabChange={(tab) => setPortal((p) => ({ ...p, tab }))}
            onForgotPassword={() => {
              setPortal((p) => ({ ...p, open: false }));
              openForgot();
            }}
          />
        )}
        {invitation.key > 0 && (
          <AcceptInvitationDialog
            key={`invitation-${invitation.key}`}
            open={invitation.open}
            token={invitation.token}
            notice={invitation.notice}
            onOpenChange={(open) => setInvitation((i) => ({ ...i, open }))}
            onLogin={() => {
              setInvitation((i) => ({ ...i, open: false }));
              openPortal("login");
            }}
          />
        )}
        {forgot.key > 0 && (
          <ForgotPasswordDialog
            key={forgot.key}
            open={forgot.open}
            initialToken={forgot.token}
            onOpenChange={(open) => setForgot((f) => ({ ...f, open }))}
            onBackToLogin={() => {
              setForgot((f) => ({ ...f, open: false }));
              openPortal("login");
            }}
            onResetDone={(login) => {
              setForgot((f) => ({ ...f, open: false }));
              openPortal("login", { notice: PASSWORD_RESET_DONE, prefill: login });
            }}
          />
        )}
      </Suspense>
      {/* Never on top of another dialog, and not before the firm's name is known (its title). */}
      <WelcomeVideo
        suppressed={welcomeSuppressed || site.media?.welcomeModal === false}
        held={portal.open || forgot.open || invitation.open || site.isPending}
        firmName={firmName || DEFAULT_FIRM_NAME}
        video={site.media?.video ?? null}
        onShownChange={setVideoShown}
      />
    </div>
  );
}

/**
 * The welcome video for a first visit, WELCOME_VIDEO_DELAY_MS after the page opens; a due video
 * waits while it is `held`. Its state lives here, so its timer re-renders only this.
 */
function WelcomeVideo({
  suppressed,
  held,
  firmName,
  video,
  onShownChange,
}: {
  suppressed: boolean;
  held: boolean;
  firmName: string;
  video: WelcomeVideoFile | null;
  /** Told when the video opens and closes (the page holds its carousel meanwhile). */
  onShownChange: (shown: boolean) => void;
}) {
  const [open, setOpen] = useState(false);
  useEffect(() => onShownChange(open), [open, onShownChange]);
  const [due, setDue] = useState(false);

  useEffect(() => {
    if (suppressed || hasSeenWelcomeVideo(window.localStorage)) return;
    const timer = window.setTimeout(() => setDue(true), WELCOME_VIDEO_DELAY_MS);
    return () => window.clearTimeout(timer);
  }, [suppressed]);

  // Adjusted while rendering rather than in an effect, so the video opens in the same render it stops being held.
  if (due && !held && !suppressed) {
    setDue(false);
    if (!hasSeenWelcomeVideo(window.localStorage)) setOpen(true);
  }

  if (!open) return null;
  return (
    <Suspense fallback={null}>
      <WelcomeVideoModal open={open} onOpenChange={setOpen} firmName={firmName} video={video} />
    </Suspense>
  );
}

/**
 * The testimonials, loaded as the visitor nears them (below the fold, with twelve sample quotes):
 * what the first load saved by it made room for the language catalogue (docs/i18n.md, "Budget").
 */
function DeferredTestimonials({ data, held }: { data: string | undefined; held: boolean }) {
  const [ref, near] = useNearViewport<HTMLDivElement>("150% 0px");
  const placeholder = <div className="min-h-80" />;
  return (
    <div ref={ref}>
      <Suspense fallback={placeholder}>{near ? <SiteTestimonials data={data} held={held} /> : placeholder}</Suspense>
    </div>
  );
}

/**
 * The consultation form, loaded as the visitor heads for the contact section (it is far below the
 * fold, and its code brings the tRPC client, React Query and zod), not while the page first loads.
 */
function DeferredConsultationForm({ services }: { services: Service[] }) {
  const [ref, near] = useNearViewport<HTMLDivElement>("150% 0px");
  return (
    <div ref={ref}>
      <Suspense fallback={formSpinner}>{near ? <ConsultationForm services={services} /> : formSpinner}</Suspense>
    </div>
  );
}
