import { generateToken, hashToken } from "../../auth/session.ts";
import type { Outgoing } from "../../mail/outgoing.ts";
import { composeEmail, portalLink } from "../../mail/compose.ts";
import type { AppDeps } from "../../trpc/context.ts";
import { firmName } from "../site/service.ts";
import type { Language } from "../auth/schemas.ts";
import { INVITE_PARAM } from "./messages.ts";
import { findInvitationForMail, markInvitationSent, setInvitationToken, waitingForInvitee } from "./queries.ts";
import { invitationStatus } from "./service.ts";

export function invitationLink(publicUrl: string, token: string): string {
  return portalLink(publicUrl, INVITE_PARAM, token);
}

/** The firm's invitation of a client, with a new link (the earlier one dies). */
export type InvitationJob = { invitationId: string; expiresAt: string };

/**
 * The invitation mail, with a link made as it is sent (as the reset mail's): the queue never holds a
 * usable link, and each try replaces the token of the one before. Nothing to send once the
 * invitation is accepted, revoked or expired.
 */
export async function invitationMail(deps: AppDeps, job: InvitationJob): Promise<Outgoing | null> {
  const invitation = await findInvitationForMail(deps.db, job.invitationId);
  if (!invitation || invitationStatus(invitation, deps.now()) !== "pending") return null;
  const token = generateToken();
  if (!(await setInvitationToken(deps.db, invitation.id, new Date(job.expiresAt), hashToken(token)))) return null;
  const firm = await firmName(deps);
  const words = INVITATION_MAIL[invitation.language];
  const waiting = await waitingLine(deps, invitation.id, invitation.account_id, invitation.language);
  const body = composeEmail({
    firmName: firm,
    language: invitation.language,
    heading: words.heading,
    paragraphs: [words.greeting(invitation.name), words.invites(firm), ...(waiting ? [waiting] : []), words.link],
    action: { label: words.action, url: invitationLink(deps.config.publicUrl, token) },
    footer: words.footer,
  });
  return {
    message: { to: invitation.email, subject: words.subject(firm), ...body },
    onSent: (tx, at) => markInvitationSent(tx, invitation.id, at),
  };
}

/** The invitation in each language the firm may choose for it (docs/i18n.md); a record, so a language without its words does not compile. */
const INVITATION_MAIL: Record<
  Language,
  {
    subject: (firm: string) => string;
    heading: string;
    greeting: (name: string) => string;
    invites: (firm: string) => string;
    link: string;
    action: string;
    footer: string;
    waiting: { sign: [string, string]; organizer: [string, string]; request: [string, string]; and: string; line: (list: string) => string };
  }
> = {
  en: {
    subject: (firm) => `Your invitation to the ${firm} client portal`,
    heading: "You are invited to our client portal",
    greeting: (name) => `Hello ${name},`,
    invites: (firm) =>
      `${firm} invites you to its secure client portal, where you share documents with us, see what we ask for and book appointments.`,
    link: "Open the link below to choose a username and password, or to continue with the Google account of this email address. The link works once and expires in 7 days.",
    action: "Accept Invitation",
    footer: "If you did not expect this invitation, ignore this email: no account is made without you.",
    waiting: {
      sign: ["document to sign", "documents to sign"],
      organizer: ["tax organizer to answer", "tax organizers to answer"],
      request: ["document request", "document requests"],
      and: "and",
      line: (list) => `Waiting for you in the portal: ${list}. It is all there as soon as you accept.`,
    },
  },
  es: {
    subject: (firm) => `Su invitación al portal del cliente de ${firm}`,
    heading: "Le invitamos a nuestro portal del cliente",
    greeting: (name) => `Hola, ${name}:`,
    invites: (firm) =>
      `${firm} le invita a su portal seguro del cliente, donde usted comparte documentos con nosotros, ve lo que le solicitamos y programa citas.`,
    link: "Abra el enlace a continuación para elegir un nombre de usuario y una contraseña, o para continuar con la cuenta de Google de esta dirección de correo electrónico. El enlace funciona una sola vez y vence en 7 días.",
    action: "Aceptar invitación",
    footer: "Si no esperaba esta invitación, ignore este correo electrónico: no se crea ninguna cuenta sin usted.",
    waiting: {
      sign: ["documento para firmar", "documentos para firmar"],
      organizer: ["organizador de impuestos para responder", "organizadores de impuestos para responder"],
      request: ["solicitud de documentos", "solicitudes de documentos"],
      and: "y",
      line: (list) => `Le espera en el portal: ${list}. Todo estará allí en cuanto acepte.`,
    },
  },
};

const counted = (n: number, [one, many]: [string, string]) => (n === 1 ? `1 ${one}` : `${n} ${many}`);

/**
 * What the firm prepared for the invitee, counted (never its titles): it waits in the portal and is
 * theirs the moment they accept (docs/decisions.md, "Prepared for invited people"); null for nothing.
 */
async function waitingLine(deps: AppDeps, invitationId: string, accountId: string | null, language: Language): Promise<string | null> {
  const { signatures, organizers, requests } = await waitingForInvitee(deps.db, invitationId, accountId);
  const words = INVITATION_MAIL[language].waiting;
  const parts = [
    ...(signatures > 0 ? [counted(signatures, words.sign)] : []),
    ...(organizers > 0 ? [counted(organizers, words.organizer)] : []),
    ...(requests > 0 ? [counted(requests, words.request)] : []),
  ];
  if (parts.length === 0) return null;
  const list = parts.length === 1 ? parts[0]! : `${parts.slice(0, -1).join(", ")} ${words.and} ${parts[parts.length - 1]}`;
  return words.line(list);
}
