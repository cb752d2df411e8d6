/*
 * The client hears from the firm when it schedules, reschedules or cancels an appointment: by mail,
 * at the real SMTP test server, with the date, time (zone named), status and a portal link, and
 * nothing of the appointment's free text.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createUser, loginClient, type UserFixture } from "../helpers/factories.ts";
import type { ApiClient } from "../helpers/http.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import { type ReceivedMail, startSmtpServer, type TestSmtpServer } from "../helpers/smtp.ts";

let smtp: TestSmtpServer;
let server: TestServer;
let admin: ApiClient;

beforeAll(async () => {
  smtp = await startSmtpServer();
  server = await startTestServer({ env: { SMTP_URL: smtp.url } });
  admin = await loginClient(server.url, await createUser(server.db, { is_admin: true }), "admin");
});
afterAll(async () => {
  await server.close();
  await smtp.stop();
});
beforeEach(() => {
  smtp.messages.length = 0;
});

const TITLE = "URGENT wire $5,000 to acct 123 today";

async function verified(user: UserFixture): Promise<UserFixture> {
  await server.db.updateTable("users").set({ email_verified_at: new Date() }).where("id", "=", user.id).execute();
  return user;
}

async function nextMailTo(email: string, already: number): Promise<ReceivedMail> {
  const mails = await smtp.waitForMessages(already + 1);
  return mails.slice(already).find((m) => m.to.includes(email))!;
}

function expectNoFreeText(mail: ReceivedMail) {
  for (const part of [mail.subject, mail.text, mail.html]) {
    expect(part).not.toContain("URGENT");
    expect(part).not.toContain("acct 123");
  }
}

describe("appointment emails", () => {
  it("tells the client when the firm schedules, reschedules and cancels, and not for other changes", async () => {
    const user = await verified(await createUser(server.db, { name: "Gale Hawthorne" }));
    const created = await admin.post("/api/admin/appointments", {
      user_id: user.id,
      title: TITLE,
      description: "call +1 555 0100",
      appointment_date: "2030-03-05T20:30:00Z",
      status: "scheduled",
    });
    expect(created.status, created.text).toBe(201);
    const scheduled = await nextMailTo(user.email, 0);
    expect(scheduled.subject).toBe("Your appointment is scheduled - Harborline Accounting & Business Services");
    expect(scheduled.text).toContain("Hello Gale Hawthorne,");
    // 20:30 UTC is 2:30 PM in Chicago in March 2030 (standard time until March 10).
    expect(scheduled.text).toContain("Tuesday, March 5, 2030 at 2:30 PM Central Standard Time");
    expect(scheduled.text).toContain("Status: Scheduled");
    expect(scheduled.text).toContain(`${server.url}/dashboard?tab=appointments`);
    expectNoFreeText(scheduled);
    expect(scheduled.text).not.toContain("555 0100");

    const id = created.body.id as string;
    expect((await admin.patch(`/api/admin/appointments/${id}`, { appointment_date: "2030-07-01T15:00:00Z" })).status).toBe(200);
    const moved = await nextMailTo(user.email, 1);
    expect(moved.subject).toContain("Your appointment has a new time");
    expect(moved.text).toContain("Monday, July 1, 2030 at 10:00 AM Central Daylight Time");

    // A title change or marking it done is not news for the client's calendar.
    expect((await admin.patch(`/api/admin/appointments/${id}`, { title: "Quarterly review" })).status).toBe(200);
    expect((await admin.patch(`/api/admin/appointments/${id}`, { status: "completed" })).status).toBe(200);
    expect((await admin.patch(`/api/admin/appointments/${id}`, { status: "cancelled" })).status).toBe(200);
    const cancelled = await nextMailTo(user.email, 2);
    expect(cancelled.subject).toContain("Your appointment is cancelled");
    expect(cancelled.text).toContain("Status: Cancelled");
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(smtp.messages.map((m) => m.subject.split(" - ")[0])).toEqual([
      "Your appointment is scheduled",
      "Your appointment has a new time",
      "Your appointment is cancelled",
    ]);
  });

  it("schedules a client's request with a mail that greets an unverified address without a name", async () => {
    const user = await createUser(server.db, { name: "Click here to claim your refund" });
    const client = await loginClient(server.url, user);
    const requested = await client.post("/api/appointments", { title: TITLE, preferredDate: "2030-05-06", preferredTime: "morning" });
    expect(requested.status, requested.text).toBeLessThan(300);
    const [row] = await server.db.selectFrom("appointments").select("id").where("account_id", "=", user.id).execute();
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(smtp.messages).toEqual([]);

    expect((await admin.patch(`/api/admin/appointments/${row!.id}`, { status: "scheduled" })).status).toBe(200);
    const mail = await nextMailTo(user.email, 0);
    expect(mail.text).toContain("Hello,");
    expect(mail.text).not.toContain("claim your refund");
    expect(mail.text).toContain("Monday, May 6, 2030 at 9:00 AM Central Daylight Time");
    expectNoFreeText(mail);
  });
});
