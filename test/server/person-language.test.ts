/*
 * A person's language (issue 50, docs/i18n.md): auth.me carries it, the client changes it, the firm
 * sets it on an invitation and acceptance gives it to the person; the password-reset and invitation
 * emails speak it, received on the test SMTP server.
 */
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUser, loginClient, type UserFixture } from "../helpers/factories.ts";
import { ApiClient } from "../helpers/http.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import { linkToken, type ReceivedMail, startSmtpServer, type TestSmtpServer } from "../helpers/smtp.ts";

let smtp: TestSmtpServer;
let server: TestServer;
let admin: UserFixture;

beforeAll(async () => {
  smtp = await startSmtpServer();
  server = await startTestServer({ env: { SMTP_URL: smtp.url } });
  admin = await createUser(server.db, { is_admin: true });
});
afterAll(async () => {
  await server?.close();
  await smtp?.stop();
});

/** The newest mail to `email` whose subject matches, waiting for it. */
async function mailTo(email: string, subject: RegExp): Promise<ReceivedMail> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const mail = smtp.messages.filter((m) => m.to.includes(email) && subject.test(m.subject)).at(-1);
    if (mail) return mail;
    if (Date.now() > deadline) throw new Error(`no mail to ${email} matching ${subject}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const setLanguage = (api: ApiClient, language: unknown) => api.post("/trpc/account.updateLanguage", { json: { language } });

describe("a person's language", () => {
  it("is English until the client chooses Spanish in their settings; auth.me says which", async () => {
    const user = await createUser(server.db);
    const api = await loginClient(server.url, user);
    expect((await api.get("/api/auth/me")).body).toMatchObject({ id: user.id, language: "en" });

    const res = await setLanguage(api, "es");
    expect(res.status, res.text).toBe(200);
    expect((await api.get("/api/auth/me")).body).toMatchObject({ language: "es" });

    expect((await setLanguage(api, "fr")).status).toBe(400);
    expect((await api.get("/api/auth/me")).body).toMatchObject({ language: "es" });
  });

  it("sends a Spanish client the password reset in Spanish", async () => {
    const user = await createUser(server.db);
    await server.db.updateTable("users").set({ language: "es" }).where("id", "=", user.id).execute();
    const res = await new ApiClient(server.url).post("/api/auth/forgot-password", { email: user.email });
    expect(res.status).toBe(200);

    const mail = await mailTo(user.email, /contraseña/);
    expect(mail.subject).toMatch(/^Restablezca su contraseña de /);
    expect(mail.text).toContain("Restablezca su contraseña");
    expect(mail.text).toContain("El enlace funciona una sola vez y vence en 1 hora.");
    expect(mail.text).toContain("Restablecer contraseña: ");
    expect(mail.html).toContain('<html lang="es">');
    expect(linkToken(mail, "reset_token")).toMatch(/^[a-z2-7]+$/);
  });

  it("keeps the English reset mail for everyone else", async () => {
    const user = await createUser(server.db);
    await new ApiClient(server.url).post("/api/auth/forgot-password", { email: user.email });
    const mail = await mailTo(user.email, /password/);
    expect(mail.subject).toMatch(/^Reset your .* password$/);
    expect(mail.text).toContain("We received a request to reset the password of your client portal account.");
  });

  it("invites in the firm's chosen language, and the person who accepts keeps it", async () => {
    const adminApi = await loginClient(server.url, admin, "admin");
    const email = `invitee.${randomBytes(4).toString("hex")}@example.com`;
    const res = await adminApi.post("/api/admin/invitations", { name: "Lucía Gómez", email, language: "es" });
    expect(res.status, res.text).toBe(201);

    const mail = await mailTo(email, /invitación/);
    expect(mail.subject).toMatch(/^Su invitación al portal del cliente de /);
    expect(mail.text).toContain("Hola, Lucía Gómez:");
    expect(mail.text).toContain("Aceptar invitación: ");
    expect(mail.html).toContain('<html lang="es">');

    const invitee = new ApiClient(server.url, { Origin: server.url });
    const accepted = await invitee.post("/api/auth/invitations/accept", {
      token: linkToken(mail, "invite"),
      username: `lucia_${randomBytes(3).toString("hex")}`,
      name: "Lucía Gómez",
      password: "Copper-Lantern-Meadow-9",
    });
    expect(accepted.status, accepted.text).toBe(201);
    expect((await invitee.get("/api/auth/me")).body).toMatchObject({ email, language: "es" });
  });
});
