import type { ActivityAction } from "@server/domains/activity/record.ts";
import type { ActivityEventItem } from "@server/domains/activity/schemas.ts";
import { formatStorageSize } from "@/lib/storage-size.ts";

export type { ActivityAction };

/** Whose page the sentence is for: the client reads "You" and "Your firm"; the firm reads account names. */
type ActivityView = "client" | "admin";

export type DescribableActivity = Pick<
  ActivityEventItem,
  "action" | "actor_role" | "actor_label" | "client_label" | "detail" | "ip" | "user_agent" | "by_you"
>;

/**
 * Friendly names for the action filter, one per recorded action (the unit test checks the list is
 * complete; Partial so a new action on the server never breaks the client's type-check).
 */
export const ACTION_LABELS: Partial<Record<ActivityAction, string>> = {
  "auth.sign_in": "Sign-in",
  "auth.sign_in_failed": "Failed sign-in",
  "auth.sign_out": "Sign-out",
  "auth.password_reset": "Password reset",
  "auth.password_change": "Password change",
  "document.upload": "Document upload",
  "document.download": "Document download",
  "document.preview": "Document preview",
  "document.rename": "Document rename",
  "document.move": "Document move",
  "document.trash": "Document moved to trash",
  "document.restore": "Document restore",
  "document.delete": "Document deleted forever",
  "document.delete_held": "Document deleted forever, kept under a legal hold",
  "folder.create": "Folder created",
  "folder.update": "Folder changed",
  "folder.delete": "Folder deleted",
  "request.create": "Document request created",
  "request.update": "Document request updated",
  "request.item_update": "Request item marked done or reopened",
  "request.item_remove": "File removed from a request item",
  "request_template.create": "Request template created",
  "request_template.update": "Request template changed",
  "request_template.delete": "Request template deleted",
  "organizer.send": "Organizer sent",
  "organizer.submit": "Organizer submitted",
  "organizer.unsubmit": "Organizer taken back",
  "organizer.reopen": "Organizer reopened",
  "organizer_template.create": "Organizer template created",
  "organizer_template.update": "Organizer template changed",
  "organizer_template.delete": "Organizer template deleted",
  "invitation.create": "Invitation sent",
  "invitation.resend": "Invitation resent",
  "invitation.revoke": "Invitation revoked",
  "invitation.accept": "Invitation accepted",
  "message.send": "Message sent",
  "site.update": "Site content edit",
  "settings.update": "Firm setting changed",
  "staff.invite": "Team member invited",
  "staff.update": "Team member changed",
  "staff.transfer_ownership": "Ownership transferred",
  "user.delete": "Account deleted",
  "account.create": "Client account created",
  "account.update": "Client account changed",
  "account.contact_add": "Person added to an account",
  "account.contact_update": "Person's access changed",
  "account.contact_remove": "Person removed from an account",
  "account.claim_detach": "Claimed login left an account",
  "account.import": "Client accounts imported",
  "account.assign": "Client account assignment",
  "account.note_add": "Private note added",
  "account.note_update": "Private note changed",
  "account.note_delete": "Private note deleted",
  "account.export": "Account data exported",
  "security.end_all_sessions": "Every session ended",
  "security.access_log": "Access log exported",
  "account.legal_hold": "Legal hold placed",
  "account.legal_hold_clear": "Legal hold lifted",
  "retention.dispose": "Documents disposed of (retention)",
  "signature.create": "Signature request sent",
  "signature.view": "Signature request viewed",
  "signature.consent": "Agreed to sign electronically",
  "signature.verify": "Identity confirmed for signing",
  "signature.sign": "Document signed",
  "signature.decline": "Signature declined",
  "signature.void": "Signature request voided",
  "signature.remind": "Signature reminder sent",
  "signature.in_person": "Signer's photo ID checked in person",
  "signature.complete": "Signed document sealed",
};

/** "billing.invoice_paid" -> "Billing: invoice paid", for an action recorded after this page was built. */
export function actionLabel(action: string): string {
  const known = ACTION_LABELS[action as ActivityAction];
  if (known) return known;
  const [domain = "", ...rest] = action.split(".");
  const words = (text: string) => text.replace(/[_-]+/g, " ").trim();
  const head = words(domain);
  const tail = words(rest.join(" "));
  const capital = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);
  return tail ? `${capital(head)}: ${tail}` : capital(head) || "Unknown action";
}

const FAILURE_REASONS: Record<string, string> = {
  wrong_password: "wrong password",
  unknown_account: "unknown account",
  wrong_code: "wrong two-factor code",
};

/** "Chrome on Windows" from a user agent string; null when neither is recognised. */
export function describeUserAgent(userAgent: string | null): string | null {
  if (!userAgent) return null;
  const browser = /Edg(e|A|iOS)?\//.test(userAgent)
    ? "Edge"
    : /OPR\/|Opera/.test(userAgent)
      ? "Opera"
      : /Firefox\/|FxiOS\//.test(userAgent)
        ? "Firefox"
        : /Chrome\/|CriOS\/|Chromium\//.test(userAgent)
          ? "Chrome"
          : /Safari\//.test(userAgent)
            ? "Safari"
            : null;
  const system = /iPhone|iPad|iPod/.test(userAgent)
    ? "iOS"
    : /Android/.test(userAgent)
      ? "Android"
      : /Windows/.test(userAgent)
        ? "Windows"
        : /CrOS/.test(userAgent)
          ? "ChromeOS"
          : /Mac OS X|Macintosh/.test(userAgent)
            ? "macOS"
            : /Linux/.test(userAgent)
              ? "Linux"
              : null;
  if (browser && system) return `${browser} on ${system}`;
  return browser ?? system;
}

function text(detail: Record<string, unknown>, key: string): string | null {
  const value = detail[key];
  if (typeof value === "string" && value.trim()) return value;
  if (typeof value === "number") return String(value);
  return null;
}

/** One sentence for one entry of the trail, e.g. "You uploaded W-2.pdf to Taxes 2025". */
export function describeActivity(entry: DescribableActivity, view: ActivityView): string {
  const { detail } = entry;
  const isClientView = view === "client";
  const subject = isClientView
    ? entry.actor_role === "client"
      ? entry.by_you === false
        ? entry.actor_label
        : "You"
      : entry.actor_role === "admin"
        ? // The server names the staff for the client: "Your firm", or a display name if the firm chooses.
          entry.actor_label
        : "The portal"
    : entry.actor_role === "system"
      ? "The portal"
      : entry.actor_label;
  // The firm acting on a client's document names whose it is in the firm's view.
  const actingOnOther = !isClientView && entry.client_label !== null && (entry.actor_role !== "client" || entry.actor_label !== entry.client_label);
  const owned = (name: string) => (actingOnOther ? `${entry.client_label}'s ${name}` : name);
  const file = owned(text(detail, "filename") ?? "a document");
  const folder = text(detail, "folder");
  const inFolder = folder ? ` to ${folder}` : "";
  const device = describeUserAgent(entry.user_agent);
  const from = `${entry.ip ? ` from ${entry.ip}` : ""}${device ? (entry.ip ? ` (${device})` : ` on ${device}`) : ""}`;
  const their = subject === "You" ? "your" : "their";
  const said = (sentence: string) => `${subject} ${sentence}`;

  switch (entry.action) {
    case "auth.sign_in":
      return isClientView && entry.actor_role === "client" ? `Signed in${from}` : said(`signed in${from}`);
    case "auth.sign_in_failed": {
      const reason = text(detail, "reason");
      const why = reason ? `: ${FAILURE_REASONS[reason] ?? reason.replace(/_/g, " ")}` : "";
      const as = isClientView ? "" : ` as ${entry.actor_label}`;
      return `Failed sign-in${as}${from}${why}`;
    }
    case "auth.sign_out":
      return isClientView && entry.actor_role === "client" ? "Signed out" : said("signed out");
    case "auth.password_reset":
      return said(`reset ${their} password`);
    case "auth.password_change":
      return said(`changed ${their} password`);
    case "document.upload": {
      const item = text(detail, "request_item");
      const organizer = text(detail, "organizer");
      if (organizer) return said(`uploaded ${file} for the organizer “${organizer}”`);
      return said(`uploaded ${file}${item ? ` for “${item}”` : inFolder}`);
    }
    case "document.download":
      return said(`downloaded ${file}`);
    case "document.preview":
      return said(`viewed ${file}`);
    case "document.rename": {
      const before = text(detail, "from");
      return before ? said(`renamed ${owned(before)} to ${text(detail, "filename") ?? "a new name"}`) : said(`renamed ${file}`);
    }
    case "document.move":
      return said(`moved ${file} to ${folder ?? "the top level"}`);
    case "document.trash":
      return said(`moved ${file} to the trash`);
    case "document.restore":
      return said(`restored ${file} from the trash${folder ? ` into ${folder}` : ""}`);
    case "document.delete":
      return said(`deleted ${file} forever`);
    case "document.delete_held":
      return said(`deleted ${file} forever; the legal hold keeps it in the firm's trash`);
    case "folder.create":
      return said(`created the folder ${folder ?? ""}`.trimEnd());
    case "folder.update":
      return said(`changed the folder ${folder ?? ""}`.trimEnd());
    case "folder.delete":
      return said(`deleted the folder ${folder ?? ""}`.trimEnd());
    case "request.create": {
      const title = text(detail, "title");
      const whom = isClientView || entry.client_label === null ? "" : ` ${entry.client_label}`;
      return said(`asked${whom} for ${title ? `“${title}”` : "documents"}`);
    }
    case "request.update": {
      const title = text(detail, "title");
      const status = text(detail, "status");
      const named = actingOnOther
        ? `${entry.client_label}'s request ${title ? `“${title}”` : ""}`.trimEnd()
        : title
          ? `the request “${title}”`
          : "a document request";
      if (status === text(detail, "previous_status")) return said(`updated ${named}`);
      if (status === "submitted") return said(`submitted ${named}`);
      if (status === "done") return said(`marked ${named} done`);
      if (status === "open") return said(`reopened ${named}`);
      return said(`updated ${named}`);
    }
    case "request.item_update": {
      const item = text(detail, "item");
      const title = text(detail, "title");
      const named = `${item ? `“${item}”` : "an item"}${title ? ` of ${actingOnOther ? `${entry.client_label}'s request` : "the request"} “${title}”` : ""}`;
      return said(text(detail, "status") === "done" ? `marked ${named} done` : `reopened ${named}`);
    }
    case "request.item_remove": {
      const item = text(detail, "item");
      return said(`removed ${file} from ${item ? `“${item}”` : "a request item"}`);
    }
    case "request_template.create":
      return said(`created the request template ${text(detail, "title") ? `“${text(detail, "title")}”` : ""}`.trimEnd());
    case "request_template.update":
      return said(`changed the request template ${text(detail, "title") ? `“${text(detail, "title")}”` : ""}`.trimEnd());
    case "request_template.delete":
      return said(`deleted the request template ${text(detail, "title") ? `“${text(detail, "title")}”` : ""}`.trimEnd());
    case "organizer.send": {
      const title = text(detail, "title");
      const whom = isClientView || entry.client_label === null ? "" : ` ${entry.client_label}`;
      return said(`sent${whom} the organizer ${title ? `“${title}”` : ""}`.trimEnd());
    }
    case "organizer.submit":
    case "organizer.unsubmit":
    case "organizer.reopen": {
      const title = text(detail, "title");
      const named = actingOnOther ? `${entry.client_label}'s organizer${title ? ` “${title}”` : ""}` : `the organizer${title ? ` “${title}”` : ""}`;
      const verb = { "organizer.submit": "submitted", "organizer.unsubmit": "took back", "organizer.reopen": "reopened" }[entry.action];
      return said(`${verb} ${named}`);
    }
    case "organizer_template.create":
    case "organizer_template.update":
    case "organizer_template.delete": {
      const verb = { "organizer_template.create": "created", "organizer_template.update": "changed", "organizer_template.delete": "deleted" }[
        entry.action
      ];
      const name = text(detail, "name");
      return said(`${verb} the organizer template ${name ? `“${name}”` : ""}`.trimEnd());
    }
    case "invitation.create":
    case "invitation.resend":
    case "invitation.revoke": {
      const who = text(detail, "email") ?? entry.client_label ?? "a client";
      const verb = {
        "invitation.create": "invited",
        "invitation.resend": "resent the invitation to",
        "invitation.revoke": "revoked the invitation for",
      }[entry.action];
      return said(`${verb} ${who}`);
    }
    case "invitation.accept":
      return said("accepted the invitation");
    case "message.send": {
      const attachments = typeof detail.attachments === "number" ? detail.attachments : 0;
      const withAttachments = attachments === 0 ? "" : attachments === 1 ? " with an attachment" : ` with ${attachments} attachments`;
      const to =
        entry.actor_role === "admin"
          ? isClientView
            ? " you"
            : entry.client_label
              ? ` ${entry.client_label}`
              : ""
          : isClientView
            ? " your firm"
            : " the firm";
      return said(`sent${to} a message${withAttachments}`);
    }
    case "site.update":
      return said("edited the site content");
    case "settings.update":
      return said(`changed the firm setting ${text(detail, "setting")?.replace(/_/g, " ") ?? ""}`.trimEnd());
    case "staff.invite":
      return said(`invited ${text(detail, "name") ?? text(detail, "email") ?? "a person"} to the team as ${text(detail, "role") ?? "staff"}`);
    case "staff.update":
      return said(`changed the team member ${text(detail, "name") ?? text(detail, "email") ?? ""}`.trimEnd());
    case "staff.transfer_ownership":
      return said(`made ${text(detail, "name") ?? text(detail, "email") ?? "another person"} the firm's owner`);
    case "user.delete":
      return said(`deleted the account ${entry.client_label ?? ""}`.trimEnd());
    case "account.create":
      return said(`created the client account ${entry.client_label ?? ""}`.trimEnd());
    case "account.update":
      return said(`changed the client account ${entry.client_label ?? ""}`.trimEnd());
    case "account.contact_add":
    case "account.contact_update":
    case "account.contact_remove": {
      const who = text(detail, "name") ?? text(detail, "email") ?? "a person";
      const where = entry.client_label ? ` ${entry.client_label}` : " the account";
      const verb = {
        "account.contact_add": `added ${who} to${where}`,
        "account.contact_update": `changed the access of ${who} to${where}`,
        "account.contact_remove": `removed ${who} from${where}`,
      }[entry.action];
      return said(verb);
    }
    case "account.claim_detach":
      // Firm-private (record.ts): the address's owner proved it, and the login left this account for the firm's review.
      return said(
        `proved the address${text(detail, "email") ? ` ${text(detail, "email")}` : ""} and left ${entry.client_label ?? "the account"}, which awaits the firm's review`,
      );
    case "account.import":
      return said("imported client accounts");
    case "account.assign":
      return said(`changed who works on ${text(detail, "account") ?? "a client account"}`);
    case "account.note_add":
    case "account.note_update":
    case "account.note_delete": {
      const on = entry.client_label ? ` on ${entry.client_label}` : "";
      const verb = { "account.note_add": "added", "account.note_update": "changed", "account.note_delete": "deleted" }[entry.action];
      return said(`${verb} a private note${on}`);
    }
    case "account.export": {
      const whose = isClientView
        ? entry.actor_role === "client"
          ? `${their} account's`
          : "your account's"
        : `${entry.client_label ?? "a client account"}'s`;
      return said(`exported ${whose} data`);
    }
    case "security.end_all_sessions": {
      const ended = typeof detail.sessions === "number" ? detail.sessions : null;
      return said(`ended every session of every user${ended === null ? "" : ` (${ended} ended)`}`);
    }
    case "security.access_log": {
      const range = text(detail, "from") && text(detail, "to") ? ` for ${text(detail, "from")} to ${text(detail, "to")}` : "";
      return said(`downloaded the access log${range}`);
    }
    case "account.legal_hold":
    case "account.legal_hold_clear": {
      const on = entry.client_label ?? "a client account";
      const reason = text(detail, "reason");
      const why = reason ? `: “${reason}”` : "";
      return said(entry.action === "account.legal_hold" ? `placed a legal hold on ${on}${why}` : `lifted the legal hold on ${on}${why}`);
    }
    case "retention.dispose": {
      const count = typeof detail.documents === "number" ? detail.documents : 0;
      const bytes = typeof detail.bytes === "number" ? detail.bytes : null;
      const what = `${count} ${count === 1 ? "document" : "documents"}${bytes === null ? "" : ` (${formatStorageSize(bytes)})`}`;
      const whose = isClientView ? "" : entry.client_label ? ` of ${entry.client_label}` : "";
      const years = typeof detail.years_after_last_activity === "number" ? detail.years_after_last_activity : null;
      const rule =
        text(detail, "rule") === "trash"
          ? `after ${typeof detail.trash_days === "number" ? detail.trash_days : 30} days in the trash`
          : `kept ${years === null ? "the" : `${years} ${years === 1 ? "year" : "years"}`} after the account's last activity`;
      return said(`disposed of ${what}${whose}, ${rule}`);
    }
    case "signature.create":
    case "signature.view":
    case "signature.consent":
    case "signature.verify":
    case "signature.sign":
    case "signature.decline":
    case "signature.void":
    case "signature.remind":
    case "signature.in_person":
    case "signature.complete": {
      const title = text(detail, "title");
      const named = title ? `“${title}”` : "a signature request";
      if (entry.action === "signature.complete") return `${title ? `“${title}”` : "A signature request"} was signed by everyone and sealed`;
      const whose = actingOnOther && entry.action === "signature.create" ? ` to ${entry.client_label}` : "";
      const sentence = {
        "signature.create": `sent ${named} for signature${whose}`,
        "signature.view": `opened ${named}`,
        "signature.consent": `agreed to sign ${named} electronically`,
        "signature.verify": `confirmed their identity to sign ${named}`,
        "signature.sign": `signed ${named}`,
        "signature.decline": `declined to sign ${named}`,
        "signature.void": `voided ${named}`,
        "signature.remind": `sent a reminder to sign ${named}`,
        "signature.in_person": `checked a signer's photo ID in person for ${named}`,
      }[entry.action];
      return said(sentence.replace("their identity", `${their} identity`));
    }
    default:
      return `${subject} — ${actionLabel(entry.action)}`;
  }
}
