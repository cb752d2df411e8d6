import { describe, expect, it } from "vitest";
import { ACTIVITY_ACTIONS } from "../../server/domains/activity/record.ts";
import {
  ACTION_LABELS,
  actionLabel,
  type DescribableActivity,
  describeActivity,
  describeUserAgent,
} from "../../src/features/activity/describe-activity.ts";

const CHROME_WINDOWS = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";
const SAFARI_IPHONE =
  "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1";

function entry(overrides: Partial<DescribableActivity>): DescribableActivity {
  return {
    action: "document.upload",
    actor_role: "client",
    actor_label: "jdoe",
    client_label: "jdoe",
    detail: {},
    ip: null,
    user_agent: null,
    ...overrides,
  };
}

/** What the server sends a client for the firm's entries: "Your firm" (or a display name), never a login name. */
const asClientSees = (e: DescribableActivity): DescribableActivity => (e.actor_role === "admin" ? { ...e, actor_label: "Your firm" } : e);

describe("describeActivity in the client's view", () => {
  it("says You for the client's own actions", () => {
    const upload = entry({ detail: { filename: "W-2.pdf", folder: "Taxes 2025" } });
    expect(describeActivity(upload, "client")).toBe("You uploaded W-2.pdf to Taxes 2025");
    expect(describeActivity(entry({ detail: { filename: "W-2.pdf", folder: null } }), "client")).toBe("You uploaded W-2.pdf");
  });

  it("says Your firm when the firm acted on the client's document, or the staff member's name the server gives", () => {
    const download = entry({ action: "document.download", actor_role: "admin", actor_label: "Your firm", detail: { filename: "W-2.pdf" } });
    expect(describeActivity(download, "client")).toBe("Your firm downloaded W-2.pdf");
    expect(describeActivity({ ...download, action: "document.preview" }, "client")).toBe("Your firm viewed W-2.pdf");
    expect(describeActivity({ ...download, actor_label: "Dana Whitfield" }, "client")).toBe("Dana Whitfield downloaded W-2.pdf");
  });

  it("names where and on what the client signed in", () => {
    const signIn = entry({ action: "auth.sign_in", ip: "203.0.113.5", user_agent: CHROME_WINDOWS });
    expect(describeActivity(signIn, "client")).toBe("Signed in from 203.0.113.5 (Chrome on Windows)");
    expect(describeActivity({ ...signIn, ip: null, user_agent: null }, "client")).toBe("Signed in");
  });

  it("gives the reason of a failed sign-in without repeating the typed name", () => {
    const failed = entry({ action: "auth.sign_in_failed", actor_label: "jdoe", ip: "198.51.100.7", detail: { reason: "wrong_password" } });
    expect(describeActivity(failed, "client")).toBe("Failed sign-in from 198.51.100.7: wrong password");
  });

  it("describes renames, moves and the trash", () => {
    const rename = entry({ action: "document.rename", detail: { filename: "W-2 2025.pdf", from: "scan.pdf" } });
    expect(describeActivity(rename, "client")).toBe("You renamed scan.pdf to W-2 2025.pdf");
    expect(describeActivity(entry({ action: "document.move", detail: { filename: "a.pdf", folder: null } }), "client")).toBe(
      "You moved a.pdf to the top level",
    );
    expect(describeActivity(entry({ action: "document.trash", detail: { filename: "a.pdf" } }), "client")).toBe("You moved a.pdf to the trash");
    expect(describeActivity(entry({ action: "auth.password_change" }), "client")).toBe("You changed your password");
  });
});

describe("describeActivity in the firm's view", () => {
  it("uses account labels and says whose document the firm touched", () => {
    const download = entry({ action: "document.download", actor_role: "admin", actor_label: "office", detail: { filename: "W-2.pdf" } });
    expect(describeActivity(download, "admin")).toBe("office downloaded jdoe's W-2.pdf");
    const upload = entry({ detail: { filename: "W-2.pdf", folder: "Taxes 2025" } });
    expect(describeActivity(upload, "admin")).toBe("jdoe uploaded W-2.pdf to Taxes 2025");
  });

  it("names the account tried in a failed sign-in", () => {
    const failed = entry({
      action: "auth.sign_in_failed",
      actor_label: "mallory",
      client_label: null,
      ip: "192.0.2.1",
      detail: { reason: "unknown_account" },
    });
    expect(describeActivity(failed, "admin")).toBe("Failed sign-in as mallory from 192.0.2.1: unknown account");
  });

  it("says The portal for the system's own events", () => {
    const purge = entry({ action: "document.delete", actor_role: "system", actor_label: "system", detail: { filename: "old.pdf" } });
    expect(describeActivity(purge, "admin")).toBe("The portal deleted jdoe's old.pdf forever");
    expect(describeActivity(purge, "client")).toBe("The portal deleted old.pdf forever");
  });

  it("tells the firm that a legal hold kept what a client deleted forever", () => {
    const kept = entry({ action: "document.delete_held", actor_role: "client", actor_label: "jdoe", detail: { filename: "w2.pdf" } });
    expect(describeActivity(kept, "admin")).toBe("jdoe deleted w2.pdf forever; the legal hold keeps it in the firm's trash");
  });
});

describe("document requests", () => {
  const asked = entry({ action: "request.create", actor_role: "admin", actor_label: "office", detail: { title: "2025 W-2", status: "open" } });
  const update = (actor: "client" | "admin", status: string, previous: string) =>
    entry({
      action: "request.update",
      actor_role: actor,
      actor_label: actor === "admin" ? "office" : "jdoe",
      detail: { title: "2025 W-2", status, previous_status: previous },
    });

  it("tells of checklist items, the client's removals and the firm's templates (issue 34)", () => {
    const item = (status: string) =>
      entry({ action: "request.item_update", actor_role: "admin", actor_label: "office", detail: { title: "2025 taxes", item: "W-2", status } });
    expect(describeActivity(asClientSees(item("done")), "client")).toBe("Your firm marked “W-2” of the request “2025 taxes” done");
    expect(describeActivity(item("open"), "admin")).toBe("office reopened “W-2” of jdoe's request “2025 taxes”");
    const removed = entry({ action: "request.item_remove", detail: { title: "2025 taxes", item: "W-2", filename: "photo.jpg" } });
    expect(describeActivity(removed, "client")).toBe("You removed photo.jpg from “W-2”");
    const uploaded = entry({ detail: { filename: "w2.pdf", folder: "Taxes", request: "2025 taxes", request_item: "W-2" } });
    expect(describeActivity(uploaded, "client")).toBe("You uploaded w2.pdf for “W-2”");
    const template = entry({
      action: "request_template.create",
      actor_role: "admin",
      actor_label: "office",
      client_label: null,
      detail: { title: "Tax season" },
    });
    expect(describeActivity(template, "admin")).toBe("office created the request template “Tax season”");
  });

  it("tells the client what the firm asked for and what became of it", () => {
    expect(describeActivity(asClientSees(asked), "client")).toBe("Your firm asked for “2025 W-2”");
    expect(describeActivity(update("client", "submitted", "open"), "client")).toBe("You submitted the request “2025 W-2”");
    expect(describeActivity(asClientSees(update("admin", "done", "submitted")), "client")).toBe("Your firm marked the request “2025 W-2” done");
    expect(describeActivity(asClientSees(update("admin", "open", "submitted")), "client")).toBe("Your firm reopened the request “2025 W-2”");
    expect(describeActivity(asClientSees(update("admin", "open", "open")), "client")).toBe("Your firm updated the request “2025 W-2”");
  });

  it("tells of organizers sent, submitted, taken back and reopened, and of their templates (issue 36)", () => {
    const sent = entry({ action: "organizer.send", actor_role: "admin", actor_label: "office", detail: { title: "2026 organizer" } });
    expect(describeActivity(asClientSees(sent), "client")).toBe("Your firm sent the organizer “2026 organizer”");
    expect(describeActivity(sent, "admin")).toBe("office sent jdoe the organizer “2026 organizer”");
    const submitted = entry({ action: "organizer.submit", detail: { title: "2026 organizer" } });
    expect(describeActivity(submitted, "client")).toBe("You submitted the organizer “2026 organizer”");
    expect(describeActivity(entry({ action: "organizer.unsubmit", detail: { title: "2026 organizer" } }), "client")).toBe(
      "You took back the organizer “2026 organizer”",
    );
    const reopened = entry({ action: "organizer.reopen", actor_role: "admin", actor_label: "office", detail: { title: "2026 organizer" } });
    expect(describeActivity(reopened, "admin")).toBe("office reopened jdoe's organizer “2026 organizer”");
    const uploaded = entry({ detail: { filename: "w2.pdf", folder: "2026 organizer", organizer: "2026 organizer" } });
    expect(describeActivity(uploaded, "client")).toBe("You uploaded w2.pdf for the organizer “2026 organizer”");
    const template = entry({
      action: "organizer_template.update",
      actor_role: "admin",
      actor_label: "office",
      client_label: null,
      detail: { name: "Individual" },
    });
    expect(describeActivity(template, "admin")).toBe("office changed the organizer template “Individual”");
  });

  it("names the client in the firm's view", () => {
    expect(describeActivity(asked, "admin")).toBe("office asked jdoe for “2025 W-2”");
    expect(describeActivity(update("client", "submitted", "open"), "admin")).toBe("jdoe submitted the request “2025 W-2”");
    expect(describeActivity(update("admin", "done", "submitted"), "admin")).toBe("office marked jdoe's request “2025 W-2” done");
  });
});

describe("actions the page does not know", () => {
  it("fall back to a readable form of the action name", () => {
    expect(actionLabel("billing.invoice_paid")).toBe("Billing: invoice paid");
    expect(describeActivity(entry({ action: "billing.invoice_paid" }), "admin")).toBe("jdoe — Billing: invoice paid");
  });

  it("every recorded action has a friendly name and its own sentence", () => {
    for (const action of ACTIVITY_ACTIONS) {
      expect(ACTION_LABELS[action], action).toBeTruthy();
      expect(describeActivity(entry({ action }), "admin"), action).not.toContain("—");
    }
    // The action filter offers these: each must be one the server accepts.
    expect(Object.keys(ACTION_LABELS).filter((action) => !(ACTIVITY_ACTIONS as readonly string[]).includes(action))).toEqual([]);
  });
});

describe("describeUserAgent", () => {
  it("reads the browser and the system", () => {
    expect(describeUserAgent(CHROME_WINDOWS)).toBe("Chrome on Windows");
    expect(describeUserAgent(SAFARI_IPHONE)).toBe("Safari on iOS");
    expect(describeUserAgent("curl/8.5.0")).toBeNull();
    expect(describeUserAgent(null)).toBeNull();
  });
});

describe("describeActivity of messages", () => {
  it("says who wrote to whom, and how many attachments, never the text", () => {
    const fromClient = entry({ action: "message.send", detail: { attachments: 2 } });
    expect(describeActivity(fromClient, "client")).toBe("You sent your firm a message with 2 attachments");
    expect(describeActivity(fromClient, "admin")).toBe("jdoe sent the firm a message with 2 attachments");
    const fromFirm = entry({ action: "message.send", actor_role: "admin", actor_label: "office", detail: { attachments: 0 } });
    expect(describeActivity(asClientSees(fromFirm), "client")).toBe("Your firm sent you a message");
    expect(describeActivity({ ...fromFirm, detail: { attachments: 1 } }, "admin")).toBe("office sent jdoe a message with an attachment");
  });
});

describe("describeActivity of safeguards (issue 37)", () => {
  it("tells of an account's export, in both views", () => {
    const byClient = entry({ action: "account.export" });
    expect(describeActivity(byClient, "client")).toBe("You exported your account's data");
    expect(describeActivity(byClient, "admin")).toBe("jdoe exported jdoe's data");
    const byFirm = entry({ action: "account.export", actor_role: "admin", actor_label: "office" });
    expect(describeActivity(asClientSees(byFirm), "client")).toBe("Your firm exported your account's data");
    expect(describeActivity(byFirm, "admin")).toBe("office exported jdoe's data");
  });

  it("tells of the owner ending every session and of the access log's download", () => {
    const ended = entry({
      action: "security.end_all_sessions",
      actor_role: "admin",
      actor_label: "owner",
      client_label: null,
      detail: { sessions: 12 },
    });
    expect(describeActivity(ended, "admin")).toBe("owner ended every session of every user (12 ended)");
    const log = entry({
      action: "security.access_log",
      actor_role: "admin",
      actor_label: "owner",
      client_label: null,
      detail: { from: "2026-11-01T00:00:00.000Z", to: "2026-11-02T00:00:00.000Z" },
    });
    expect(describeActivity(log, "admin")).toBe("owner downloaded the access log for 2026-11-01T00:00:00.000Z to 2026-11-02T00:00:00.000Z");
  });
});

describe("describeActivity of retention (issue 37)", () => {
  it("tells of a legal hold placed and lifted, with its reason, to the firm", () => {
    const placed = entry({ action: "account.legal_hold", actor_role: "admin", actor_label: "owner", detail: { reason: "IRS audit 2024" } });
    expect(describeActivity(placed, "admin")).toBe("owner placed a legal hold on jdoe: “IRS audit 2024”");
    const lifted = entry({ action: "account.legal_hold_clear", actor_role: "admin", actor_label: "owner", detail: { reason: "IRS audit 2024" } });
    expect(describeActivity(lifted, "admin")).toBe("owner lifted the legal hold on jdoe: “IRS audit 2024”");
  });

  it("tells of a disposal receipt: how many documents, how many bytes, under which rule", () => {
    const inactive = entry({
      action: "retention.dispose",
      actor_role: "system",
      actor_label: "system",
      detail: { rule: "inactivity", years_after_last_activity: 7, documents: 3, bytes: 3 * 1024 * 1024 },
    });
    expect(describeActivity(inactive, "admin")).toBe(
      "The portal disposed of 3 documents (3 MB) of jdoe, kept 7 years after the account's last activity",
    );
    expect(describeActivity(inactive, "client")).toBe("The portal disposed of 3 documents (3 MB), kept 7 years after the account's last activity");
    const trash = entry({
      action: "retention.dispose",
      actor_role: "system",
      actor_label: "system",
      detail: { rule: "trash", trash_days: 30, documents: 1, bytes: 500 },
    });
    expect(describeActivity(trash, "admin")).toBe("The portal disposed of 1 document (500 B) of jdoe, after 30 days in the trash");
  });
});

describe("signatures (issue 35)", () => {
  it("tells of each step of a signature request, for the client and the firm", () => {
    const sent = entry({ action: "signature.create", actor_role: "admin", actor_label: "office", detail: { title: "2025 Form 8879" } });
    expect(describeActivity(sent, "admin")).toBe("office sent “2025 Form 8879” for signature to jdoe");
    expect(describeActivity(asClientSees(sent), "client")).toBe("Your firm sent “2025 Form 8879” for signature");
    const verified = entry({ action: "signature.verify", detail: { title: "Engagement letter", method: "email_code" } });
    expect(describeActivity(verified, "client")).toBe("You confirmed your identity to sign “Engagement letter”");
    const signed = entry({ action: "signature.sign", actor_label: "maria", detail: { title: "Engagement letter" } });
    expect(describeActivity(signed, "admin")).toBe("maria signed “Engagement letter”");
    const sealed = entry({ action: "signature.complete", detail: { title: "Engagement letter" } });
    expect(describeActivity(sealed, "client")).toBe("“Engagement letter” was signed by everyone and sealed");
  });
});
