// Issue 47, items 4 and 5 (docs/security.md, "Round 4: mail under the firm's name"), each attack
// replayed over real HTTP with a real SMTP server.
// 4. Anyone could register, stay unverified and have the firm mail 10 invitations an hour whose
//    subject and body carried the name they registered with and the invitee name they typed. Only
//    a proven address may invite now, and the mail quotes nothing the inviter typed.
// 5. 15 signature reminders in 25 s reached one client as 16 mails, and 12 invitation resends were
//    all sent. A signer is reminded once a day at most, resends count as staff resends do, and each
//    of the firm's people has an hourly cap on the mail they have the portal send to clients.
import { createHash, randomBytes } from "node:crypto";
import { PDFDocument, StandardFonts } from "@cantoo/pdf-lib";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createRateLimits,
  MAX_CONTACT_INVITATIONS_PER_USER_PER_HOUR,
  MAX_FIRM_MAILS_TO_CLIENTS_PER_PERSON_PER_HOUR,
} from "../../server/auth/rate-limit.ts";
import { chargedIfMailing } from "../../server/trpc/firm-mail-cap.ts";
import { VERIFY_FIRST } from "../../server/domains/account-contacts/messages.ts";
import { createUser, loginClient } from "../helpers/factories.ts";
import { ApiClient } from "../helpers/http.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import { type ReceivedMail, startSmtpServer, type TestSmtpServer } from "../helpers/smtp.ts";

const REGISTERED_NAME = "IRS Refund Office - call 1-800-555-0100";
const INVITEE_NAME = "URGENT: your refund is on hold, call 1-800-555-0199";
const PASSWORD = "Harbor-Quill-Meadow-27";
/** The firm's name as the default site content gives it. */
const FIRM = "Harborline Accounting & Business Services";

let smtp: TestSmtpServer;
let server: TestServer;

beforeAll(async () => {
  smtp = await startSmtpServer();
  server = await startTestServer({ env: { SMTP_URL: smtp.url } });
});
afterAll(async () => {
  await server?.close();
  await smtp?.stop();
});

const uniqueEmail = (what: string) => `${what}.${randomBytes(4).toString("hex")}@example.com`;
const mailsTo = (to: string, subject: RegExp) => smtp.messages.filter((m) => m.to.includes(to) && subject.test(m.subject));
const everything = (mail: ReceivedMail) => `${mail.subject}\n${mail.text}\n${mail.html}`;

async function admin(): Promise<ApiClient> {
  return loginClient(server.url, await createUser(server.db, { is_admin: true }), "admin");
}

describe("item 4: an unproven client sends firm-branded mail in their own words", () => {
  it("the attack replayed: unverified, the invitation is refused (403) and nothing is mailed; verified, the mail quotes none of the typed text", async () => {
    const username = `reg_${randomBytes(4).toString("hex")}`;
    const email = `${username}@example.com`;
    const anon = new ApiClient(server.url);
    const registered = await anon.post("/api/auth/register", { username, email, name: REGISTERED_NAME, password: PASSWORD });
    expect(registered.status, registered.text).toBe(200);
    const attacker = new ApiClient(server.url);
    expect((await attacker.post("/api/auth/login", { username, password: PASSWORD })).status).toBe(200);

    const victim = uniqueEmail("victim");
    const refused = await attacker.post("/api/account/contacts", { name: INVITEE_NAME, email: victim });
    expect(refused.status, refused.text).toBe(403);
    expect(refused.body).toEqual({ detail: VERIFY_FIRST });
    expect(await server.db.selectFrom("invitations").select("id").where("email", "=", victim).execute()).toEqual([]);

    // Proving the address is what lets them invite; the name they registered with stays theirs.
    const verification = await smtp.waitForMail(email, /verify/i);
    const token = new RegExp(`${server.url}/\\?verify_token=([a-z2-7]+)`).exec(verification.text)![1]!;
    expect((await anon.post("/api/auth/verify-email", { token })).status).toBe(200);
    const invited = await attacker.post("/api/account/contacts", { name: INVITEE_NAME, email: victim });
    expect(invited.status, invited.text).toBe(201);

    const mail = await smtp.waitForMail(victim, /invited/i);
    expect(mailsTo(victim, /./)).toHaveLength(1);
    for (const typed of ["IRS", "1-800", "URGENT", "refund"]) expect(everything(mail)).not.toContain(typed);
    expect(mail.subject).toBe(`You are invited to join a client account at ${FIRM}`);
    expect(mail.text).toContain("Hello,");
    expect(mail.text).toContain(`${email}, a client of ${FIRM}, invites you`);
  });
});

async function makePdf(): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  doc.addPage([612, 792]).drawText("Engagement letter", { x: 72, y: 700, size: 14, font });
  return doc.save();
}

/**
 * One client's account with a PDF sent to them for signature by `firm`; with `invited`, the request
 * also holds a slot for a person invited to the account and not signed up yet (or only that slot).
 */
async function signatureRequest(
  firm: ApiClient,
  invited?: "also" | "only",
): Promise<{ id: string; email: string; accountId: string; invitationId?: string }> {
  const signer = await createUser(server.db, { name: "Sam Signer" });
  const api = await loginClient(server.url, signer);
  const form = new FormData();
  form.append("file", new Blob([(await makePdf()) as Uint8Array<ArrayBuffer>], { type: "application/pdf" }), "letter.pdf");
  const uploaded = await api.request("POST", "/api/documents/upload", { body: form });
  expect(uploaded.status, uploaded.text).toBe(201);
  const invitation = invited
    ? await firm.post("/api/admin/invitations", { name: "Ivy Invited", email: uniqueEmail("ivy"), account_id: signer.id })
    : null;
  if (invitation) expect(invitation.status, invitation.text).toBe(201);
  const signers = [...(invited === "only" ? [] : [{ user_id: signer.id }]), ...(invitation ? [{ invitation_id: invitation.body.id as string }] : [])];
  const created = await firm.post("/api/admin/signature-requests", {
    account_id: signer.id,
    document_id: uploaded.body.id,
    title: "Letter",
    kind: "other",
    signers,
    fields: signers.map((_, i) => ({ signer: i, type: "signature", page: 1, x: 0.1, y: 0.8 - 0.1 * i, width: 0.35, height: 0.06 })),
  });
  expect(created.status, created.text).toBe(201);
  return { id: created.body.id as string, email: signer.email, accountId: signer.id, invitationId: invitation?.body.id as string | undefined };
}

describe("item 5: no limit on firm-side mail", () => {
  it("the attack replayed: of 15 reminders at once one is sent; the others are 429 saying when to try again", async () => {
    const firm = await admin();
    const { id, email } = await signatureRequest(firm);
    await smtp.waitForMail(email, /^Please sign: Letter/);

    const answers = await Promise.all(Array.from({ length: 15 }, () => firm.post(`/api/admin/signature-requests/${id}/remind`)));
    expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
    const refused = answers.filter((a) => a.status !== 200);
    expect(refused.map((a) => a.status)).toEqual(Array(14).fill(429));
    for (const a of refused)
      expect(a.body).toEqual({ detail: "Everyone waiting was reminded less than 24 hours ago. Please try again in 24 hours." });

    // The request and one reminder reached the client: the trail has one reminder, and the mail
    // that follows them (the void's) finds no second one before it.
    await smtp.waitForMail(email, /^Reminder: Please sign: Letter/);
    expect((await firm.post(`/api/admin/signature-requests/${id}/void`, { reason: "Wrong year" })).status).toBe(200);
    await smtp.waitForMail(email, /^Withdrawn: Letter/);
    expect(mailsTo(email, /Please sign: Letter/).map((m) => m.subject.split(":")[0])).toEqual(["Please sign", "Reminder"]);
    const reminded = await server.db
      .selectFrom("signature_events")
      .select("id")
      .where("request_id", "=", id)
      .where("action", "=", "remind")
      .execute();
    expect(reminded).toHaveLength(1);
  });

  // Security round 4's review (docs/security.md, "Round 4 (issue 47): reminders and the mail cap
  // count only mail that goes"): a slot held for someone invited and not signed up was stamped and
  // counted as reminded, though no mail can go to it.
  it("a reminder stamps and counts only the signers it mails, never a slot awaiting sign-up", async () => {
    const firm = await admin();
    const { id, email } = await signatureRequest(firm, "also");
    const reminded = await firm.post(`/api/admin/signature-requests/${id}/remind`);
    expect(reminded.status, reminded.text).toBe(200);
    expect(reminded.body.reminded).toBe(1);
    const stamps = await server.db
      .selectFrom("signature_signers")
      .select(["position", "user_id", "last_reminded_at"])
      .where("request_id", "=", id)
      .orderBy("position")
      .execute();
    expect(stamps[0]!.last_reminded_at).not.toBeNull();
    expect(stamps[1]).toMatchObject({ user_id: null, last_reminded_at: null });
    const trail = await server.db
      .selectFrom("signature_events")
      .select("detail")
      .where("request_id", "=", id)
      .where("action", "=", "remind")
      .executeTakeFirstOrThrow();
    expect(trail.detail).toEqual({ signers: [1] });
    await smtp.waitForMail(email, /^Reminder: Please sign/);

    // Only the invited person waits: nobody can be mailed, and nothing is stamped.
    const only = await signatureRequest(firm, "only");
    const refused = await firm.post(`/api/admin/signature-requests/${only.id}/remind`);
    expect(refused.status, refused.text).toBe(409);
    expect(refused.body.detail).toBe("Everyone waiting to sign is invited and has not signed up yet: their invitation says what waits for them");
    const slot = await server.db
      .selectFrom("signature_signers")
      .select("last_reminded_at")
      .where("request_id", "=", only.id)
      .executeTakeFirstOrThrow();
    expect(slot.last_reminded_at).toBeNull();
  });

  it("a signer may be reminded again once 24 hours have passed", async () => {
    const staff = await createUser(server.db, { is_admin: true });
    let firm = await loginClient(server.url, staff, "admin");
    const { id } = await signatureRequest(firm);
    expect((await firm.post(`/api/admin/signature-requests/${id}/remind`)).status).toBe(200);
    server.clock.advance(23 * 3_600_000);
    firm = await loginClient(server.url, staff, "admin");
    const early = await firm.post(`/api/admin/signature-requests/${id}/remind`);
    expect(early.status).toBe(429);
    expect(early.body.detail).toMatch(/Please try again in 60 minutes\.$/);
    server.clock.advance(3_600_000);
    firm = await loginClient(server.url, staff, "admin");
    expect((await firm.post(`/api/admin/signature-requests/${id}/remind`)).status).toBe(200);
  });

  it(`the attack replayed: of 12 invitation resends ${MAX_CONTACT_INVITATIONS_PER_USER_PER_HOUR} are sent, then 429`, async () => {
    const firm = await admin();
    const created = await firm.post("/api/admin/invitations", { name: "Nora Client", email: uniqueEmail("nora") });
    expect(created.status, created.text).toBe(201);
    const statuses: number[] = [];
    let last = "";
    for (let i = 0; i < 12; i++) {
      const res = await firm.post(`/api/admin/invitations/${created.body.id}/resend`);
      statuses.push(res.status);
      last = res.body.detail;
    }
    expect(statuses).toEqual([...Array(MAX_CONTACT_INVITATIONS_PER_USER_PER_HOUR).fill(200), 429, 429]);
    expect(last).toMatch(/^Too many invitations\. Please try again in \d+ minutes?\.$/);
  });

  it(`one of the firm's people has the portal mail clients at most ${MAX_FIRM_MAILS_TO_CLIENTS_PER_PERSON_PER_HOUR} times an hour; another is not held up`, async () => {
    const firm = await admin();
    for (let i = 0; i < MAX_FIRM_MAILS_TO_CLIENTS_PER_PERSON_PER_HOUR; i++) {
      const res = await firm.post("/api/admin/invitations", { name: `Client ${i}`, email: uniqueEmail(`cap${i}`) });
      expect(res.status, res.text).toBe(201);
    }
    const over = await firm.post("/api/admin/invitations", { name: "One Too Many", email: uniqueEmail("over") });
    expect(over.status).toBe(429);
    expect(over.body.detail).toMatch(/^You have sent clients many emails in the last hour\. Please try again in \d+ minutes?\.$/);
    const { id, accountId } = await signatureRequest(await admin());
    expect((await firm.post(`/api/admin/signature-requests/${id}/remind`)).status).toBe(429);
    // Scheduling an appointment mails the client; a change of its title alone does not, and is not held up.
    const at = new Date(Date.now() + 7 * 86_400_000).toISOString();
    const scheduled = await firm.post("/api/admin/appointments", { account_id: accountId, title: "Review", appointment_date: at });
    expect(scheduled.status).toBe(429);
    const colleague = await admin();
    const made = await colleague.post("/api/admin/appointments", {
      account_id: accountId,
      title: "Review",
      appointment_date: at,
      status: "requested",
    });
    expect(made.status, made.text).toBe(201);
    expect((await firm.patch(`/api/admin/appointments/${made.body.id}`, { title: "Year-end review" })).status).toBe(200);
    expect((await firm.patch(`/api/admin/appointments/${made.body.id}`, { status: "scheduled" })).status).toBe(429);
    expect((await colleague.post(`/api/admin/signature-requests/${id}/remind`)).status).toBe(200);
  });
});

// Security round 4's review (docs/security.md, "Round 4 (issue 47): reminders and the mail cap count
// only mail that goes"): the firm's hourly mail cap was charged on paths that mail no client (a
// request to an account nobody has joined yet, reopening a request that is open, a failed action).
describe("the firm's mail cap is charged only for mail that goes to a client", () => {
  /** The points one of the firm's people has spent of the hourly cap (the limiter's row; its key is hashed). */
  async function charged(userId: string): Promise<number> {
    const key = `firm_mail_user:${createHash("sha256").update(userId).digest("base64url")}`;
    const rows = await sql<{ points: number }>`select points from rate_limits where key = ${key} and expire > ${Date.now()}`.execute(server.db);
    return Number(rows.rows[0]?.points ?? 0);
  }

  it("a request to an account nobody can be mailed at, a reopening of an open request and a refused request cost nothing; a request mailed to a client costs one", async () => {
    const user = await createUser(server.db, { is_admin: true });
    const firm = await loginClient(server.url, user, "admin");
    // An account made by the firm's invitation has nobody in it until the invitee accepts (invited by a colleague).
    const invited = await (await admin()).post("/api/admin/invitations", { name: "Nobody Yet", email: uniqueEmail("nobody") });
    expect(invited.status, invited.text).toBe(201);

    const toNobody = await firm.post("/api/admin/requests", { account_id: invited.body.account_id, title: "W-2 forms" });
    expect(toNobody.status, toNobody.text).toBe(201);
    const reopened = await firm.patch(`/api/admin/requests/${toNobody.body.id}`, { status: "open" });
    expect(reopened.status, reopened.text).toBe(200);
    const client = await createUser(server.db, { name: "Cara Client" });
    const refused = await firm.post("/api/admin/requests", { account_id: client.id, title: "1099s", due_date: "2000-01-01" });
    expect(refused.status, refused.text).toBe(422);
    expect(await charged(user.id)).toBe(0);

    const mailed = await firm.post("/api/admin/requests", { account_id: client.id, title: "1099s" });
    expect(mailed.status, mailed.text).toBe(201);
    await smtp.waitForMail(client.email, /Document request: 1099s/);
    expect(await charged(user.id)).toBe(1);
    // Reopening it once done mails the client again, and costs one more.
    expect((await firm.patch(`/api/admin/requests/${mailed.body.id}`, { status: "done" })).status).toBe(200);
    expect((await firm.patch(`/api/admin/requests/${mailed.body.id}`, { status: "open" })).status).toBe(200);
    expect(await charged(user.id)).toBe(2);
  });

  it("an action that learns in its transaction that it mails is run again charged; one that mails nobody or fails gives the point back", async () => {
    const user = await createUser(server.db, { is_admin: true });
    const ctx = { rateLimits: createRateLimits(server.db), user: { id: user.id } } as Parameters<typeof chargedIfMailing>[0];
    const runs: boolean[] = [];
    // Guessed not to mail, then mailing: the first run is stopped before its mail, the second charged.
    await chargedIfMailing(ctx, false, async (mail) => {
      runs.push(true);
      mail.mayMail();
    });
    expect(runs).toHaveLength(2);
    expect(await charged(user.id)).toBe(1);
    await chargedIfMailing(ctx, true, async () => "nobody mailed");
    await expect(
      chargedIfMailing(ctx, true, async (mail) => {
        mail.mayMail();
        throw new Error("refused after all");
      }),
    ).rejects.toThrow("refused after all");
    expect(await charged(user.id)).toBe(1);
  });

  it("an appointment change that mails nobody costs nothing, and a refused one nothing either", async () => {
    const user = await createUser(server.db, { is_admin: true });
    const firm = await loginClient(server.url, user, "admin");
    const client = await createUser(server.db, { name: "Dana Client" });
    const at = new Date(Date.now() + 9 * 86_400_000);
    at.setUTCHours(15, 0, 0, 0);
    const made = await firm.post("/api/admin/appointments", { account_id: client.id, title: "Review", appointment_date: at.toISOString() });
    expect(made.status, made.text).toBe(201);
    expect(await charged(user.id)).toBe(1);
    // The same time and status again: nothing changes, nobody is mailed.
    const same = await firm.patch(`/api/admin/appointments/${made.body.id}`, { appointment_date: at.toISOString(), status: "scheduled" });
    expect(same.status, same.text).toBe(200);
    const missing = await firm.patch(`/api/admin/appointments/00000000-0000-4000-8000-000000000000`, { status: "cancelled" });
    expect(missing.status).toBe(404);
    expect(await charged(user.id)).toBe(1);
    const cancelled = await firm.patch(`/api/admin/appointments/${made.body.id}`, { status: "cancelled" });
    expect(cancelled.status, cancelled.text).toBe(200);
    expect(await charged(user.id)).toBe(2);
  });
});
