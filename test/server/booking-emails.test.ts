/*
 * The mail of self-booking, received by the real SMTP test server: the client and the firm hear
 * of a booking, a move and a cancellation, each with a calendar entry that a maintained iCalendar
 * parser (ical.js) reads: one UID per appointment, SEQUENCE up with every change, METHOD CANCEL and
 * STATUS CANCELLED at the end, TENTATIVE while the firm has to approve. A reminder goes a day
 * before, once, and not for an appointment cancelled or moved since.
 */
import ICAL from "ical.js";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createUser, loginClient, type UserFixture } from "../helpers/factories.ts";
import type { ApiClient } from "../helpers/http.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import { type ReceivedMail, startSmtpServer, type TestSmtpServer } from "../helpers/smtp.ts";

const NOW = new Date("2027-03-01T14:30:00Z");
const HOUR = 60 * 60 * 1000;
const FIRM_EMAIL = "office@harborline.test";

let smtp: TestSmtpServer;
let server: TestServer;
let adminUser: UserFixture;

beforeAll(async () => {
  smtp = await startSmtpServer();
  server = await startTestServer({ env: { SMTP_URL: smtp.url, FIRM_EMAIL } });
  server.clock.set(NOW);
  adminUser = await createUser(server.db, { is_admin: true });
});
afterAll(async () => {
  await server.close();
  await smtp.stop();
});
beforeEach(() => {
  smtp.messages.length = 0;
});

async function meetingType(body: Record<string, unknown>): Promise<string> {
  const admin = await loginClient(server.url, adminUser, "admin");
  const res = await admin.post("/api/admin/meeting-types", body);
  expect(res.status, res.text).toBe(201);
  return res.body.id as string;
}

async function verifiedClient(name: string): Promise<{ user: UserFixture; client: ApiClient }> {
  const user = await createUser(server.db, { name });
  await server.db.updateTable("users").set({ email_verified_at: new Date() }).where("id", "=", user.id).execute();
  return { user, client: await loginClient(server.url, user) };
}

/** The next `count` messages after the first `already`, by recipient. */
async function nextMails(already: number, count: number): Promise<Map<string, ReceivedMail>> {
  const mails = await smtp.waitForMessages(already + count);
  return new Map(mails.slice(already, already + count).map((mail) => [mail.to[0]!, mail]));
}

type CalendarEntry = { method: string; uid: string; sequence: number; status: string; start: string; end: string; summary: string; location: string };

/** The mail's one .ics attachment, read by ical.js. */
function calendarEntry(mail: ReceivedMail): CalendarEntry {
  expect(mail.attachments).toHaveLength(1);
  const [attachment] = mail.attachments;
  expect(attachment!.contentType).toMatch(/^text\/calendar/);
  expect(attachment!.filename).toMatch(/\.ics$/);
  const calendar = new ICAL.Component(ICAL.parse(attachment!.content));
  const vevent = calendar.getFirstSubcomponent("vevent")!;
  const event = new ICAL.Event(vevent);
  return {
    method: String(calendar.getFirstPropertyValue("method")),
    uid: event.uid,
    sequence: event.sequence,
    status: String(vevent.getFirstPropertyValue("status")),
    start: event.startDate.toJSDate().toISOString(),
    end: event.endDate.toJSDate().toISOString(),
    summary: event.summary,
    location: event.location,
  };
}

describe("booking mail", () => {
  it("tells the client and the firm of a booking, a move and a cancellation, with one calendar entry updated in place", async () => {
    const type = await meetingType({
      name: "Tax review",
      duration_minutes: 60,
      buffer_minutes: 15,
      location: "video",
      location_detail: "https://meet.example.com/harborline",
    });
    const { user, client } = await verifiedClient("Gale Hawthorne");
    const booked = await client.post("/api/appointments/book", { type, start: "2027-03-04T10:00:00-06:00", notes: "URGENT wire $5,000 to acct 123" });
    expect(booked.status, booked.text).toBe(201);
    const id = booked.body.id as string;

    let mails = await nextMails(0, 2);
    const toClient = mails.get(user.email)!;
    const toFirm = mails.get(FIRM_EMAIL)!;
    expect(toClient.subject).toBe("Your appointment is booked - Harborline Accounting & Business Services");
    expect(toClient.text).toContain("Hello Gale Hawthorne,");
    expect(toClient.text).toContain("Your appointment is on Thursday, March 4, 2027 at 10:00 AM Central Standard Time.");
    expect(toClient.text).toContain("Where: Video call: https://meet.example.com/harborline");
    for (const part of [toClient.subject, toClient.text, toClient.html]) expect(part).not.toContain("acct 123");
    expect(toFirm.subject).toBe("New booking: Tax review, Thursday, March 4, 2027 at 10:00 AM Central Standard Time");
    expect(toFirm.text).toContain("Client: Gale Hawthorne");
    expect(toFirm.text).toContain(`Email: ${user.email}`);
    expect(toFirm.text).toContain("Notes: URGENT wire $5,000 to acct 123");
    expect(toFirm.headers["reply-to"]).toContain(user.email);

    const entry = calendarEntry(toClient);
    expect(entry).toEqual({
      method: "REQUEST",
      uid: `appointment-${id}@127.0.0.1`,
      sequence: 0,
      status: "CONFIRMED",
      start: "2027-03-04T16:00:00.000Z",
      end: "2027-03-04T17:00:00.000Z",
      summary: "Tax review - Harborline Accounting & Business Services",
      location: "Video call: https://meet.example.com/harborline",
    });
    expect(calendarEntry(toFirm)).toEqual(entry);

    const moved = await client.post(`/api/appointments/${id}/reschedule`, { start: "2027-03-05T13:30:00-06:00" });
    expect(moved.status, moved.text).toBe(200);
    mails = await nextMails(2, 2);
    expect(mails.get(user.email)!.subject).toContain("Your appointment has a new time");
    expect(mails.get(FIRM_EMAIL)!.subject).toBe("Booking moved: Tax review, Friday, March 5, 2027 at 1:30 PM Central Standard Time");
    for (const mail of mails.values()) {
      expect(calendarEntry(mail)).toMatchObject({
        method: "REQUEST",
        uid: entry.uid,
        sequence: 1,
        status: "CONFIRMED",
        start: "2027-03-05T19:30:00.000Z",
        end: "2027-03-05T20:30:00.000Z",
      });
    }

    expect((await client.post(`/api/appointments/${id}/cancel`)).status).toBe(200);
    mails = await nextMails(4, 2);
    expect(mails.get(user.email)!.text).toContain("Your appointment on Friday, March 5, 2027 at 1:30 PM Central Standard Time is cancelled.");
    expect(mails.get(FIRM_EMAIL)!.subject).toContain("Booking cancelled: Tax review");
    for (const mail of mails.values()) {
      expect(calendarEntry(mail)).toMatchObject({
        method: "CANCEL",
        uid: entry.uid,
        sequence: 2,
        status: "CANCELLED",
        start: "2027-03-05T19:30:00.000Z",
      });
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(smtp.messages).toHaveLength(6);
  });

  it("marks a booking the firm must approve as tentative, and its approval as confirmed", async () => {
    const type = await meetingType({ name: "First consultation", duration_minutes: 30, location: "office", requires_approval: true });
    const { user, client } = await verifiedClient("Priya Shah");
    const booked = await client.post("/api/appointments/book", { type, start: "2027-03-08T11:00:00-06:00" });
    expect(booked.body.status).toBe("requested");
    const mails = await nextMails(0, 2);
    expect(mails.get(user.email)!.subject).toContain("We received your appointment request");
    expect(mails.get(user.email)!.text).toContain("Status: Waiting for the firm's confirmation");
    expect(mails.get(FIRM_EMAIL)!.subject).toContain("Booking to approve: First consultation");
    const entry = calendarEntry(mails.get(user.email)!);
    expect(entry).toMatchObject({
      method: "REQUEST",
      status: "TENTATIVE",
      sequence: 0,
      location: "At the office: 120 Main Street, Suite 300, Springfield, IL 62701",
    });

    const admin = await loginClient(server.url, adminUser, "admin");
    expect((await admin.patch(`/api/admin/appointments/${booked.body.id}`, { status: "scheduled" })).status).toBe(200);
    const [approved] = await smtp.waitForMessages(3).then((all) => all.slice(2));
    expect(approved!.to).toEqual([user.email]);
    expect(approved!.subject).toContain("Your appointment is scheduled");
    expect(calendarEntry(approved!)).toMatchObject({ method: "REQUEST", status: "CONFIRMED", uid: entry.uid, sequence: 1 });
  });

  it("sends the firm's own entries without a calendar entry, as before", async () => {
    const user = await createUser(server.db);
    const admin = await loginClient(server.url, adminUser, "admin");
    expect(
      (await admin.post("/api/admin/appointments", { user_id: user.id, title: "Year-end", appointment_date: "2027-04-01T15:00:00Z" })).status,
    ).toBe(201);
    const [mail] = await smtp.waitForMessages(1);
    expect(mail!.subject).toContain("Your appointment is scheduled");
    expect(mail!.attachments).toEqual([]);
  });
});

describe("reminders", () => {
  async function sweep(): Promise<void> {
    const id = await server.deps.jobs.send("appointment-reminders", {});
    await expect
      .poll(async () => (await server.deps.jobs.boss.findJobs("appointment-reminders", { id }))[0]?.state, { timeout: 10_000 })
      .toBe("completed");
  }

  /** Mail the jobs queued by now have sent: waits until both email queues have nothing left to do. */
  async function settledMail(): Promise<ReceivedMail[]> {
    const queued = async (name: string) => (await server.deps.jobs.boss.findJobs(name, { queued: true })).length;
    const waiting = async () => (await queued("email")) + (await queued("email-now"));
    await expect.poll(waiting, { timeout: 10_000 }).toBe(0);
    await new Promise((resolve) => setTimeout(resolve, 700));
    return smtp.messages.filter((mail) => mail.subject.startsWith("Reminder"));
  }

  it("go a day before, once per time: not for a cancelled appointment, and for a moved one at its new time", async () => {
    const type = await meetingType({ name: "Payroll check", duration_minutes: 30, location: "phone", location_detail: "We call you" });
    const { user, client } = await verifiedClient("Rowan Ellis");
    const book = async (start: string) => {
      const res = await client.post("/api/appointments/book", { type, start });
      expect(res.status, res.text).toBe(201);
      return res.body.id as string;
    };
    const kept = await book("2027-03-10T10:00:00-06:00");
    const moved = await book("2027-03-10T11:00:00-06:00");
    const cancelled = await book("2027-03-10T12:00:00-06:00");
    expect((await client.post(`/api/appointments/${moved}/reschedule`, { start: "2027-03-11T10:00:00-06:00" })).status).toBe(200);
    expect((await client.post(`/api/appointments/${cancelled}/cancel`)).status).toBe(200);
    await settledMail();
    smtp.messages.length = 0;

    // Tuesday 11:00 CST: the kept one (Wednesday 10:00) starts within a day, the moved one does not.
    server.clock.set(new Date("2027-03-09T17:00:00Z"));
    await sweep();
    let reminders = await settledMail();
    expect(reminders).toHaveLength(1);
    expect(reminders[0]!.to).toEqual([user.email]);
    expect(reminders[0]!.subject).toBe("Reminder: your appointment - Harborline Accounting & Business Services");
    expect(reminders[0]!.text).toContain("your appointment is on Wednesday, March 10, 2027 at 10:00 AM Central Standard Time");
    expect(reminders[0]!.text).toContain("Where: Phone call: We call you");
    await sweep();
    expect(await settledMail()).toHaveLength(1);

    // Wednesday 11:00 CST: the moved one, at its new time (Thursday 10:00), and nothing else.
    server.clock.set(new Date("2027-03-10T17:00:00Z"));
    await sweep();
    reminders = await settledMail();
    expect(reminders).toHaveLength(2);
    expect(reminders[1]!.text).toContain("Thursday, March 11, 2027 at 10:00 AM Central Standard Time");
    const rows = await server.db.selectFrom("appointments").select(["id", "reminder_for"]).where("id", "in", [kept, moved, cancelled]).execute();
    expect(Object.fromEntries(rows.map((r) => [r.id, r.reminder_for?.toISOString() ?? null]))).toEqual({
      [kept]: "2027-03-10T16:00:00.000Z",
      [moved]: "2027-03-11T16:00:00.000Z",
      [cancelled]: null,
    });
  });

  it("are not sent when the appointment no longer starts at the reminded time", async () => {
    server.clock.set(NOW);
    const type = await meetingType({ name: "Stale reminder", duration_minutes: 30, location: "office" });
    const { client } = await verifiedClient("Sam Okafor");
    const booked = await client.post("/api/appointments/book", { type, start: "2027-03-12T10:00:00-06:00" });
    await client.post(`/api/appointments/${booked.body.id}/reschedule`, { start: "2027-03-12T14:00:00-06:00" });
    await settledMail();
    smtp.messages.length = 0;
    // A reminder queued for the old time, as if the sweep ran just before the move.
    await server.deps.jobs.send("email", {
      kind: "appointment-reminder",
      appointmentId: booked.body.id,
      at: new Date("2027-03-12T16:00:00Z").toISOString(),
    });
    expect(await settledMail()).toEqual([]);
    expect(server.logs.some((line) => line.includes("mail no longer needed"))).toBe(true);
  });

  it("are not needed for a booking made within a day of its start: its confirmation is the reminder", async () => {
    server.clock.set(NOW);
    const admin = await loginClient(server.url, adminUser, "admin");
    expect(
      (
        await admin.put("/api/admin/availability", {
          weekly: [1, 2, 3, 4, 5].map((weekday) => ({ weekday, start: "09:00", end: "17:00" })),
          min_notice_hours: 2,
        })
      ).status,
    ).toBe(200);
    const type = await meetingType({ name: "Same day", duration_minutes: 30, location: "office" });
    const { client } = await verifiedClient("Ada Brooks");
    const booked = await client.post("/api/appointments/book", { type, start: "2027-03-01T14:00:00-06:00" });
    expect(booked.status, booked.text).toBe(201);
    await settledMail();
    smtp.messages.length = 0;
    server.clock.advance(HOUR);
    await sweep();
    expect(await settledMail()).toEqual([]);
  });
});

describe("booking mail to an account of several people", () => {
  it("goes to every contact with notify, greets them all, and invites each of them in the calendar entry", async () => {
    const type = await meetingType({ name: "Joint review", duration_minutes: 45, location: "phone", location_detail: "We call you" });
    const { user, client } = await verifiedClient("Ada Okafor");
    const spouse = await createUser(server.db, { name: "Ben Okafor" });
    const quiet = await createUser(server.db, { name: "Cy Okafor" });
    await server.db.updateTable("users").set({ email_verified_at: new Date() }).where("id", "in", [spouse.id, quiet.id]).execute();
    await server.db
      .insertInto("account_contacts")
      .values([
        { account_id: user.id, user_id: spouse.id, role: "member", notify: true },
        { account_id: user.id, user_id: quiet.id, role: "member", notify: false },
      ])
      .execute();
    const booked = await client.post("/api/appointments/book", { type, start: "2027-03-09T15:00:00-06:00" });
    expect(booked.status, booked.text).toBe(201);
    const mails = await smtp.waitForMessages(2);
    const toClients = mails.find((m) => m.to.includes(user.email))!;
    expect(toClients.to.sort()).toEqual([user.email, spouse.email].sort());
    expect(toClients.text).toContain("Hello Ada Okafor and Ben Okafor,");
    const ics = toClients.attachments[0]!.content.replace(/\r\n[ \t]/g, "");
    const attendees = (ics.match(/^ATTENDEE.*$/gm) ?? []).join("\n");
    expect(attendees).toContain(user.email);
    expect(attendees).toContain(spouse.email);
    expect(attendees).not.toContain(quiet.email);
    expect(mails.some((m) => m.to.includes(quiet.email))).toBe(false);
  });
});
