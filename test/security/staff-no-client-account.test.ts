// Issue 47 item 7, replayed over real HTTP: every accepted staff invitation made a client account
// owned by the new staff member, listed among the firm's clients and open to them through the
// client paths. A staff member now gets none, the client paths refuse them with a 403 saying why,
// and the admin portal works as before (the migration removing the old ones:
// test/server/staff-accounts-migration.test.ts).
import { decodeBase32IgnorePadding } from "@oslojs/encoding";
import { generateHOTP } from "@oslojs/otp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { STAFF_NO_CLIENT_ACCOUNT_DETAIL } from "../../server/trpc/procedures.ts";
import { createStaffMember, loginClient, signIn, type UserFixture } from "../helpers/factories.ts";
import { ApiClient } from "../helpers/http.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import { startSmtpServer, type TestSmtpServer } from "../helpers/smtp.ts";

const PASSWORD = "Copper-Lantern-Meadow-9";
const STEP_MS = 30_000;

let smtp: TestSmtpServer;
let server: TestServer;
let owner: UserFixture;
let ownerApi: ApiClient;

beforeAll(async () => {
  smtp = await startSmtpServer();
  server = await startTestServer({ env: { SMTP_URL: smtp.url } });
  owner = await createStaffMember(server.db, "owner");
  ownerApi = await loginClient(server.url, owner, "admin");
});
afterAll(async () => {
  await server?.close();
  await smtp?.stop();
});

describe("a staff member's client account (item 7)", () => {
  async function inviteToken(email: string): Promise<string> {
    const mail = await smtp.waitForMail(email, /invitation to the .* team/);
    return /\/\?invite=([a-z2-7]+)/.exec(mail.text)![1]!;
  }

  it("is not made: the new staff member is in no account, is not listed among clients, and the client paths refuse them cleanly", async () => {
    const email = "paula.preparer@example.com";
    const invited = await ownerApi.post("/api/admin/staff", { name: "Paula Preparer", email, role: "staff", rights: ["documents", "all_clients"] });
    expect(invited.status, invited.text).toBe(201);
    const token = await inviteToken(email);

    const browser = new ApiClient(server.url);
    const username = "paula_preparer";
    const accepted = await browser.post("/api/auth/invitations/accept", { token, username, name: "Paula Preparer", password: PASSWORD });
    expect(accepted.status, accepted.text).toBe(201);
    const setup = await browser.post("/api/auth/login/2fa/setup", { challenge: accepted.body.challenge });
    expect(setup.status, setup.text).toBe(200);
    const key = decodeBase32IgnorePadding(setup.body.secret as string);
    const step = Math.floor(server.clock.now().getTime() / STEP_MS);
    const enabled = await browser.post("/api/auth/login/2fa/enable", {
      challenge: accepted.body.challenge,
      code: generateHOTP(key, BigInt(step), 6),
    });
    expect(enabled.status, enabled.text).toBe(200);

    // The staff portal works as before.
    const me = await browser.get("/api/admin/me");
    expect(me.body).toMatchObject({ email, role: "staff", rights: ["documents", "all_clients"] });
    expect((await browser.get("/api/admin/documents")).status).toBe(200);
    expect((await browser.get("/api/admin/accounts")).status).toBe(200);

    // No client account: no contact row, nothing among the firm's clients.
    const staffId = me.body.id as string;
    expect(await server.db.selectFrom("account_contacts").select("account_id").where("user_id", "=", staffId).execute()).toEqual([]);
    const clients = await ownerApi.get(`/api/admin/accounts?q=${encodeURIComponent("Paula Preparer")}`);
    expect(clients.status).toBe(200);
    expect(clients.body).toEqual([]);

    // Signed in at the client login, the client paths say why there is nothing for them, with a 403.
    const clientSide = new ApiClient(server.url);
    const signedIn = await signIn(clientSide, {
      username,
      password: PASSWORD,
      secondFactor: { key, lastStep: step, backupCodes: [] },
    });
    expect(signedIn.status, signedIn.text).toBe(200);
    expect((await clientSide.get("/api/accounts")).body).toEqual([]);
    for (const [method, path] of [
      ["GET", "/api/documents/root"],
      ["GET", "/api/folders"],
      ["GET", "/api/messages"],
      ["GET", "/api/requests"],
      ["GET", "/api/activity"],
      ["POST", "/api/folders"],
    ] as const) {
      const res = method === "GET" ? await clientSide.get(path) : await clientSide.post(path, { name: "Mine" });
      expect({ path, status: res.status, body: res.body }).toEqual({ path, status: 403, body: { detail: STAFF_NO_CLIENT_ACCOUNT_DETAIL } });
    }
    const upload = new FormData();
    upload.append("file", new Blob(["x"]), "x.txt");
    const uploaded = await clientSide.request("POST", "/api/documents/upload", { body: upload });
    expect(uploaded.status, uploaded.text).toBe(403);
    expect(await server.db.selectFrom("folders").select("id").where("name", "=", "Mine").execute()).toEqual([]);
  });
});
