/*
 * Issue 48, items 2 and 4, on the server. Work prepared for people invited and not signed up yet:
 * an invited staff member is assigned clients ahead and reaches them from the acceptance on; an
 * invited spouse holds a signer slot, which no mail announces before they can open it, which their
 * invitation mail counts, and which binds to them (and only to the invitation's proven address)
 * when they accept. A Form 8879 without an identity-check provider says from its first mail and
 * its first answer that it is signed at the office, with the address and where to book.
 * Real server, real database, real SMTP server.
 */
import { randomBytes } from "node:crypto";
import { PDFDocument, StandardFonts } from "@cantoo/pdf-lib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signatureTurnMail } from "../../server/domains/signatures/mail.ts";
import { createUser, loginClient, type UserFixture } from "../helpers/factories.ts";
import { ApiClient } from "../helpers/http.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import { type ReceivedMail, startSmtpServer, type TestSmtpServer } from "../helpers/smtp.ts";

const PASSWORD = "Copper-Lantern-Meadow-9";
const ADDRESS = "77 Harbor Lane, Suite 5, Portland, ME 04101";

let smtp: TestSmtpServer;
let server: TestServer;
let owner: UserFixture;
let ownerApi: ApiClient;

beforeAll(async () => {
  smtp = await startSmtpServer();
  server = await startTestServer({ env: { SMTP_URL: smtp.url, TRUST_PROXY: "1" } });
  owner = await createUser(server.db, { is_admin: true });
  ownerApi = await loginClient(server.url, owner, "admin");
  await server.db
    .insertInto("site_content")
    .values({ section: "contact", key: "address", value: ADDRESS, updated_at: new Date() })
    .onConflict((oc) => oc.columns(["section", "key"]).doUpdateSet({ value: ADDRESS }))
    .execute();
});
afterAll(async () => {
  await server?.close();
  await smtp?.stop();
});

const unique = (what: string) => `${what}${randomBytes(3).toString("hex")}`;
const visitor = () =>
  new ApiClient(server.url, { Origin: server.url, "X-Forwarded-For": `10.9.${randomBytes(1)[0]! % 250}.${randomBytes(1)[0]! % 250}` });

function tokenOf(mail: ReceivedMail): string {
  const token = /\/\?invite=([a-z2-7]+)/.exec(mail.text)?.[1];
  if (!token) throw new Error(`no invitation link in:\n${mail.text}`);
  return token;
}

/** The newest invitation mail to `email` not among `seen`. */
async function invitationMailTo(email: string, seen: ReceivedMail[] = []): Promise<ReceivedMail> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const mail = smtp.messages.filter((m) => m.to.includes(email) && /invitation/i.test(m.subject) && !seen.includes(m)).at(-1);
    if (mail) return mail;
    if (Date.now() > deadline) throw new Error(`no new invitation mail to ${email}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function accept(token: string, name: string) {
  const res = await visitor().post("/api/auth/invitations/accept", { token, username: unique("u"), name, password: PASSWORD });
  expect(res.status, res.text).toBe(201);
  return res;
}

async function onePagePdf(): Promise<Blob> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  doc.addPage([612, 792]).drawText("Form 8879", { x: 72, y: 700, size: 14, font });
  return new Blob([(await doc.save()) as Uint8Array<ArrayBuffer>], { type: "application/pdf" });
}

async function uploadForAccount(accountId: string): Promise<string> {
  const form = new FormData();
  form.append("file", await onePagePdf(), "form-8879.pdf");
  const res = await ownerApi.request("POST", `/api/admin/users/${accountId}/documents`, { body: form });
  expect(res.status, res.text).toBe(201);
  return res.body.id as string;
}

const signatureField = (signer: number) => ({ signer, type: "signature", page: 1, x: 0.1, y: 0.8 - signer * 0.1, width: 0.3, height: 0.05 });

/** A household invited before anyone signed up: the first invitation makes the account, the second joins it. */
async function invitedHousehold() {
  const a = { name: "Maria Invited", email: `${unique("maria")}@example.com` };
  const b = { name: "Jose Invited", email: `${unique("jose")}@example.com` };
  const first = await ownerApi.post("/api/admin/invitations", a);
  expect(first.status, first.text).toBe(201);
  const accountId = first.body.account_id as string;
  const second = await ownerApi.post("/api/admin/invitations", { ...b, account_id: accountId });
  expect(second.status, second.text).toBe(201);
  return { accountId, a: { ...a, invitationId: first.body.id as string }, b: { ...b, invitationId: second.body.id as string } };
}

describe("staff invited but not signed up yet", () => {
  it("are assigned clients ahead, listed as invited, and reach them from their acceptance on", async () => {
    const email = `${unique("pat")}@example.com`;
    const invited = await ownerApi.post("/api/admin/staff", { name: "Pat Preparer", email, role: "staff", rights: ["documents"] });
    expect(invited.status, invited.text).toBe(201);
    const client = await createUser(server.db, { name: "Assigned Client" });

    // A client's invitation or an unknown id is not someone to assign.
    const clientInvite = await ownerApi.post("/api/admin/invitations", { name: "Not Staff", email: `${unique("c")}@example.com` });
    const refused = await ownerApi.put(`/api/admin/accounts/${client.id}/assignees`, { user_ids: [], invitation_ids: [clientInvite.body.id] });
    expect(refused.status).toBe(422);
    expect(refused.body.detail).toMatch(/Only open invitations to the firm's team can be assigned ahead/);

    const set = await ownerApi.put(`/api/admin/accounts/${client.id}/assignees`, { user_ids: [], invitation_ids: [invited.body.id] });
    expect(set.status, set.text).toBe(200);
    expect(set.body).toMatchObject({ assignees: [], invited: [{ invitation_id: invited.body.id, name: "Pat Preparer", email, role: "staff" }] });
    // A PUT without invitation_ids leaves the invited assignees as they are.
    const kept = await ownerApi.put(`/api/admin/accounts/${client.id}/assignees`, { user_ids: [] });
    expect(kept.body.invited).toHaveLength(1);
    const list = (await ownerApi.get("/api/admin/staff/invitations")).body as Array<{ id: string; assigned_accounts: unknown }>;
    expect(list.find((i) => i.id === invited.body.id)?.assigned_accounts).toEqual([{ id: client.id, name: expect.any(String) }]);

    const accepted = await accept(tokenOf(await invitationMailTo(email)), "Pat Preparer");
    expect(accepted.body.two_factor_setup_required).toBe(true);
    const pat = await server.db.selectFrom("users").select("id").where("email", "=", email).executeTakeFirstOrThrow();
    const assignees = await ownerApi.get(`/api/admin/accounts/${client.id}/assignees`);
    expect(assignees.body).toMatchObject({ assignees: [{ id: pat.id, name: "Pat Preparer" }], invited: [] });
    expect(await server.db.selectFrom("invitation_assignments").select("account_id").where("invitation_id", "=", invited.body.id).execute()).toEqual(
      [],
    );
  });

  it("an expired invitation replaced by a new one hands its clients over", async () => {
    const email = `${unique("quinn")}@example.com`;
    const first = await ownerApi.post("/api/admin/staff", { name: "Quinn Later", email, role: "staff", rights: [] });
    const client = await createUser(server.db, { name: "Waiting Client" });
    await ownerApi.put(`/api/admin/accounts/${client.id}/assignees`, { user_ids: [], invitation_ids: [first.body.id] });
    await server.db
      .updateTable("invitations")
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where("id", "=", first.body.id)
      .execute();
    const again = await ownerApi.post("/api/admin/staff", { name: "Quinn Later", email, role: "staff", rights: [] });
    expect(again.status, again.text).toBe(201);
    expect(again.body.assigned_accounts).toEqual([{ id: client.id, name: expect.any(String) }]);
  });
});

describe("clients invited but not signed up yet", () => {
  it("hold signer slots that wait, are counted in their invitation mail, and bind to each spouse on acceptance", async () => {
    const { accountId, a, b } = await invitedHousehold();
    const firstMails = [await invitationMailTo(a.email), await invitationMailTo(b.email)];
    const documentId = await uploadForAccount(accountId);
    const body = {
      account_id: accountId,
      document_id: documentId,
      title: "Engagement letter",
      kind: "engagement_letter",
      signers: [{ invitation_id: a.invitationId }, { invitation_id: b.invitationId }],
      fields: [signatureField(0), signatureField(1)],
    };
    // Both a person and an invitation, or an invitation of another account, are refused.
    const both = await ownerApi.post("/api/admin/signature-requests", { ...body, signers: [{ user_id: owner.id, invitation_id: a.invitationId }] });
    expect(both.status).toBe(422);
    const other = await invitedHousehold();
    const foreign = await ownerApi.post("/api/admin/signature-requests", {
      ...body,
      signers: [{ invitation_id: other.a.invitationId }],
      fields: [signatureField(0)],
    });
    expect(foreign.status).toBe(422);
    expect(foreign.body.detail).toMatch(/open invitation to this account/);

    const made = await ownerApi.post("/api/admin/signature-requests", body);
    expect(made.status, made.text).toBe(201);
    expect(made.body.signers).toMatchObject([
      { name: "Maria Invited", email: a.email, user_id: null, awaiting_sign_up: true },
      { name: "Jose Invited", email: b.email, user_id: null, awaiting_sign_up: true },
    ]);
    // Nothing they could open yet: the turn mail is held.
    expect(await signatureTurnMail(server.deps, { requestId: made.body.id, position: 0 })).toBeNull();
    // Their invitation mail, sent again, says what waits (counted, never titled).
    const resent = await ownerApi.post(`/api/admin/invitations/${a.invitationId}/resend`);
    expect(resent.status, resent.text).toBe(200);
    const mail = await invitationMailTo(a.email, firstMails);
    expect(mail.text).toContain("Waiting for you in the portal: 1 document to sign.");
    expect(mail.text).not.toContain("Engagement letter");

    await accept(tokenOf(mail), "Maria Invited");
    const maria = await server.db.selectFrom("users").select(["id", "username"]).where("email", "=", a.email).executeTakeFirstOrThrow();
    const signers = await server.db
      .selectFrom("signature_signers")
      .select(["position", "user_id"])
      .where("request_id", "=", made.body.id)
      .orderBy("position")
      .execute();
    expect(signers).toEqual([
      { position: 0, user_id: maria.id },
      { position: 1, user_id: null },
    ]);
    const mariaApi = await loginClient(server.url, { username: maria.username!, password: PASSWORD });
    const own = await mariaApi.get("/api/signature-requests");
    expect(own.status, own.text).toBe(200);
    expect(own.body.map((r: { id: string }) => r.id)).toEqual([made.body.id]);
    expect((await ownerApi.get(`/api/admin/signature-requests/${made.body.id}`)).body.signers[0].awaiting_sign_up).toBe(false);
    // Her turn mail goes out as anyone's once she can open it.
    expect((await signatureTurnMail(server.deps, { requestId: made.body.id, position: 0 }))?.message.to).toBe(a.email);
  });

  it("a slot binds only to the invitation's own address: one written for another address stays unbound", async () => {
    const { accountId, a } = await invitedHousehold();
    const token = tokenOf(await invitationMailTo(a.email));
    const made = await ownerApi.post("/api/admin/signature-requests", {
      account_id: accountId,
      document_id: await uploadForAccount(accountId),
      title: "Letter",
      kind: "other",
      signers: [{ invitation_id: a.invitationId }],
      fields: [signatureField(0)],
    });
    expect(made.status, made.text).toBe(201);
    // The slot's address is no longer the invitation's (as if tampered with): accepting binds nothing.
    await server.db.updateTable("signature_signers").set({ email: "someone.else@example.com" }).where("request_id", "=", made.body.id).execute();
    await accept(token, "Maria Invited");
    const slot = await server.db.selectFrom("signature_signers").select("user_id").where("request_id", "=", made.body.id).executeTakeFirstOrThrow();
    expect(slot.user_id).toBeNull();
  });
});

// Security round 4's review (docs/security.md, "Round 4 (issue 47): invitations replaced within
// reach"): an expired invitation gave way to a new one of the other kind, and its prepared work went
// with it: a client's signer slots to an invited staff member, a staff member's clients to a client.
describe("prepared work moves only to an invitation of its own kind", () => {
  const expire = (invitationId: string) =>
    server.db
      .updateTable("invitations")
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where("id", "=", invitationId)
      .execute();
  const invitationExists = async (id: string) =>
    (await server.db.selectFrom("invitations").select("id").where("id", "=", id).executeTakeFirst()) !== undefined;

  async function heldSlot(accountId: string, invitationId: string): Promise<string> {
    const made = await ownerApi.post("/api/admin/signature-requests", {
      account_id: accountId,
      document_id: await uploadForAccount(accountId),
      title: "Engagement letter",
      kind: "engagement_letter",
      signers: [{ invitation_id: invitationId }],
      fields: [signatureField(0)],
    });
    expect(made.status, made.text).toBe(201);
    return made.body.id as string;
  }
  const slotInvitation = async (requestId: string) =>
    (await server.db.selectFrom("signature_signers").select("invitation_id").where("request_id", "=", requestId).executeTakeFirstOrThrow())
      .invitation_id;

  it("a client's signer slots stay with the client's invitation when the address is invited to the team", async () => {
    const { accountId, a } = await invitedHousehold();
    const requestId = await heldSlot(accountId, a.invitationId);
    await expire(a.invitationId);
    const staff = await ownerApi.post("/api/admin/staff", { name: a.name, email: a.email, role: "staff", rights: [] });
    expect(staff.status, staff.text).toBe(201);
    expect(await slotInvitation(requestId)).toBe(a.invitationId);
    expect(await invitationExists(a.invitationId)).toBe(true);
  });

  it("a staff member's clients stay with the staff invitation when the address is invited as a client", async () => {
    const email = `${unique("rory")}@example.com`;
    const first = await ownerApi.post("/api/admin/staff", { name: "Rory Both", email, role: "staff", rights: [] });
    expect(first.status, first.text).toBe(201);
    const client = await createUser(server.db, { name: "Assigned Ahead" });
    await ownerApi.put(`/api/admin/accounts/${client.id}/assignees`, { user_ids: [], invitation_ids: [first.body.id] });
    await expire(first.body.id as string);
    const asClient = await ownerApi.post("/api/admin/invitations", { name: "Rory Both", email });
    expect(asClient.status, asClient.text).toBe(201);
    const held = (id: string) => server.db.selectFrom("invitation_assignments").select("account_id").where("invitation_id", "=", id).execute();
    expect(await held(asClient.body.id as string)).toEqual([]);
    expect(await held(first.body.id as string)).toEqual([{ account_id: client.id }]);
  });

  it("the firm's adding of a person whose invitation to the account expired takes over its signer slots", async () => {
    const { accountId, a } = await invitedHousehold();
    const requestId = await heldSlot(accountId, a.invitationId);
    await expire(a.invitationId);
    const added = await ownerApi.post(`/api/admin/accounts/${accountId}/contacts`, { name: a.name, email: a.email });
    expect(added.status, added.text).toBe(201);
    const replacement = await server.db
      .selectFrom("invitations")
      .select("id")
      .where("email", "=", a.email)
      .where("account_id", "=", accountId)
      .where("revoked_at", "is", null)
      .executeTakeFirstOrThrow();
    expect(replacement.id).not.toBe(a.invitationId);
    expect(await slotInvitation(requestId)).toBe(replacement.id);
  });

  it("an account owner's invitation replacing the firm's expired one to the same account takes over its signer slots", async () => {
    const holder = await createUser(server.db, { name: "Account Holder" });
    await server.db.updateTable("users").set({ email_verified_at: new Date() }).where("id", "=", holder.id).execute();
    const email = `${unique("spouse")}@example.com`;
    const firm = await ownerApi.post("/api/admin/invitations", { name: "Spouse", email, account_id: holder.id });
    expect(firm.status, firm.text).toBe(201);
    const requestId = await heldSlot(holder.id, firm.body.id as string);
    await expire(firm.body.id as string);
    const holderApi = await loginClient(server.url, holder);
    const invited = await holderApi.post("/api/account/contacts", { name: "Spouse", email });
    expect(invited.status, invited.text).toBe(201);
    const replacement = await server.db
      .selectFrom("invitations")
      .select("id")
      .where("email", "=", email)
      .where("account_id", "=", holder.id)
      .executeTakeFirstOrThrow();
    expect(replacement.id).not.toBe(firm.body.id);
    expect(await slotInvitation(requestId)).toBe(replacement.id);
  });
});

describe("a Form 8879 without an identity-check provider", () => {
  it("says from its first mail and its first answer that it is signed at the office, with the address and a booking link", async () => {
    const sam = await createUser(server.db, { name: "Sam Eightynine" });
    const made = await ownerApi.post("/api/admin/signature-requests", {
      account_id: sam.id,
      document_id: await uploadForAccount(sam.id),
      title: "2026 Form 8879",
      kind: "form_8879",
      signers: [{ user_id: sam.id }],
      fields: [signatureField(0)],
    });
    expect(made.status, made.text).toBe(201);
    const mail = await smtp.waitForMail(sam.email, /Please sign at our office: 2026 Form 8879/, 20_000);
    expect(mail.text).not.toMatch(/phone or computer/);
    expect(mail.text).toContain("please come to our office with a photo ID");
    expect(mail.text).toContain(`Where to sign: ${ADDRESS}`);
    expect(mail.text).toContain(`Book a visit: ${server.url}/dashboard?tab=appointments`);
    expect(mail.text).toContain(`Read the form: ${server.url}/signatures/${made.body.id}`);

    const samApi = await loginClient(server.url, sam);
    const own = await samApi.get(`/api/signature-requests/${made.body.id}`);
    expect(own.body.office).toEqual({ address: ADDRESS, booking_path: "/dashboard?tab=appointments" });
    // Checked in person at the office, it is signed here: the page's usual steps, and no office note.
    const checked = await ownerApi.post(`/api/admin/signature-requests/${made.body.id}/signers/0/in-person`, { id_document: "Passport" });
    expect(checked.status, checked.text).toBe(200);
    expect((await samApi.get(`/api/signature-requests/${made.body.id}`)).body.office).toBeNull();
  });
});
