/*
 * Self-booking over HTTP against the real server and database: the firm's availability and
 * meeting types, the free slots (firm's offsets, daylight saving, buffers, notice, horizon, days
 * off), booking, cancelling and moving one's own appointment, the database's refusal of overlapping
 * bookings (the exclusion constraint, on Postgres and on the embedded database), and the admin's
 * week view. The server's clock is set to Monday 2027-03-01 08:30 in Chicago (and runs on from there).
 */
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { wallTimeToInstant } from "../../server/domains/appointments/firm-clock.ts";
import { createUser, loginClient, type UserFixture } from "../helpers/factories.ts";
import { ApiClient } from "../helpers/http.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

const NOW = new Date("2027-03-01T14:30:00Z");
const HOUR = 60 * 60 * 1000;

let server: TestServer;
let adminUser: UserFixture;
let admin: ApiClient;

beforeAll(async () => {
  server = await startTestServer();
  server.clock.set(NOW);
  adminUser = await createUser(server.db, { is_admin: true });
  admin = await loginClient(server.url, adminUser, "admin");
});
afterAll(() => server.close());

/** The admin signs in again after the clock moved past the admin session's idle limit. */
async function freshAdmin(): Promise<ApiClient> {
  admin = await loginClient(server.url, adminUser, "admin");
  return admin;
}

async function newClient(): Promise<{ user: UserFixture; client: ApiClient }> {
  const user = await createUser(server.db);
  return { user, client: await loginClient(server.url, user) };
}

async function meetingType(body: Record<string, unknown>): Promise<string> {
  const res = await admin.post("/api/admin/meeting-types", { location: "office", ...body });
  expect(res.status, res.text).toBe(201);
  return res.body.id as string;
}

const WEEKDAYS_9_TO_5 = [1, 2, 3, 4, 5].map((weekday) => ({ weekday, start: "09:00", end: "17:00" }));

async function setAvailability(body: Record<string, unknown>) {
  const res = await admin.put("/api/admin/availability", { weekly: WEEKDAYS_9_TO_5, days_off: [], min_notice_hours: 24, horizon_days: 60, ...body });
  expect(res.status, res.text).toBe(200);
  return res.body;
}

async function slots(client: ApiClient, query: Record<string, string>): Promise<Array<{ start: string; end: string }>> {
  const res = await client.get(`/api/appointments/slots?${new URLSearchParams(query)}`);
  expect(res.status, res.text).toBe(200);
  return res.body;
}

describe("the firm's availability", () => {
  it("starts at Monday to Friday 9 to 5, 24 hours' notice, 60 days ahead, 3 upcoming bookings a client, on the firm's clock", async () => {
    const res = await admin.get("/api/admin/availability");
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      weekly: WEEKDAYS_9_TO_5,
      days_off: [],
      min_notice_hours: 24,
      horizon_days: 60,
      max_upcoming_bookings: 3,
      skip_federal_holidays: true,
      time_zone: "America/Chicago",
    });
  });

  it("is replaced as a whole, with several ranges a day, and read back in order", async () => {
    const weekly = [
      { weekday: 3, start: "13:00", end: "17:30" },
      { weekday: 1, start: "09:00", end: "12:00" },
      { weekday: 3, start: "08:00", end: "12:00" },
      { weekday: 7, start: "22:00", end: "24:00" },
    ];
    const saved = await setAvailability({ weekly, days_off: ["2027-12-25", "2027-07-05", "2027-12-25"], min_notice_hours: 2, horizon_days: 30 });
    expect(saved).toEqual({
      weekly: [weekly[1], weekly[2], weekly[0], weekly[3]],
      days_off: ["2027-07-05", "2027-12-25"],
      min_notice_hours: 2,
      horizon_days: 30,
      max_upcoming_bookings: 3,
      skip_federal_holidays: true,
      time_zone: "America/Chicago",
    });
    expect((await admin.get("/api/admin/availability")).body).toEqual(saved);
    await setAvailability({});
  });

  it("refuses what is not hours, days or limits, with a detail, and changes nothing", async () => {
    const bad: Array<[Record<string, unknown>, string]> = [
      [{ weekly: [{ weekday: 8, start: "09:00", end: "10:00" }] }, "weekday must be 1 (Monday) to 7 (Sunday)"],
      [{ weekly: [{ weekday: 1, start: "9:00", end: "10:00" }] }, "Times are written HH:MM, from 00:00 to 24:00"],
      [{ weekly: [{ weekday: 1, start: "10:00", end: "10:00" }] }, "Each range of hours must end after it starts"],
      [{ weekly: [{ weekday: 1, start: "24:00", end: "24:00" }] }, "Each range of hours must end after it starts"],
      [{ days_off: ["2027-02-30"] }, "Days off are dates written YYYY-MM-DD"],
      [{ min_notice_hours: -1 }, "min_notice_hours cannot be negative"],
      [{ min_notice_hours: 1.5 }, "min_notice_hours must be a whole number of hours"],
      [{ horizon_days: 0 }, "horizon_days must be at least 1"],
      [{ horizon_days: 366 }, "horizon_days must be at most 365"],
      [{ max_upcoming_bookings: 0 }, "max_upcoming_bookings must be at least 1"],
      [{ max_upcoming_bookings: 51 }, "max_upcoming_bookings must be at most 50"],
      [{ weekly: "9 to 5" }, "weekly must be a list of ranges of hours"],
    ];
    for (const [change, detail] of bad) {
      const res = await admin.put("/api/admin/availability", { weekly: WEEKDAYS_9_TO_5, ...change });
      expect(res.status, JSON.stringify(change)).toBe(422);
      expect(res.body, JSON.stringify(change)).toEqual({ detail });
    }
    expect((await admin.get("/api/admin/availability")).body.weekly).toEqual(WEEKDAYS_9_TO_5);
  });
});

describe("meeting types", () => {
  it("are added, listed by name, changed and deleted (then no longer offered)", async () => {
    const created = await admin.post("/api/admin/meeting-types", {
      name: "Tax review",
      duration_minutes: 60,
      location: "video",
      location_detail: "https://meet.example.com/firm",
    });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      id: expect.any(String),
      name: "Tax review",
      duration_minutes: 60,
      buffer_minutes: 0,
      location: "video",
      location_detail: "https://meet.example.com/firm",
      requires_approval: false,
    });
    const id = created.body.id as string;
    const changed = await admin.patch(`/api/admin/meeting-types/${id}`, { buffer_minutes: 15, requires_approval: true });
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({ id, buffer_minutes: 15, requires_approval: true, duration_minutes: 60 });
    expect((await admin.patch(`/api/admin/meeting-types/${id}`, {})).body).toEqual(changed.body);

    const { client } = await newClient();
    expect((await client.get("/api/appointments/meeting-types")).body).toContainEqual(changed.body);
    expect((await admin.delete(`/api/admin/meeting-types/${id}`)).body).toEqual({ success: true });
    expect((await client.get("/api/appointments/meeting-types")).body).not.toContainEqual(expect.objectContaining({ id }));
    expect((await admin.get("/api/admin/meeting-types")).body).not.toContainEqual(expect.objectContaining({ id }));
    const gone = await client.get(`/api/appointments/slots?type=${id}`);
    expect(gone.status).toBe(404);
    expect(gone.body).toEqual({ detail: "Meeting type not found" });
    expect((await admin.delete(`/api/admin/meeting-types/${id}`)).status).toBe(404);
    expect((await admin.patch(`/api/admin/meeting-types/${id}`, { name: "Back" })).status).toBe(404);
  });

  it("refuses bad lengths and places with a detail", async () => {
    const bad: Array<[Record<string, unknown>, string]> = [
      [{ name: " ", duration_minutes: 30, location: "office" }, "Name is required"],
      [{ name: "x", duration_minutes: 4, location: "office" }, "A meeting lasts at least 5 minutes"],
      [{ name: "x", duration_minutes: 481, location: "office" }, "A meeting lasts at most 480 minutes (8 hours)"],
      [{ name: "x", duration_minutes: 30, buffer_minutes: -5, location: "office" }, "buffer_minutes cannot be negative"],
      [{ name: "x", duration_minutes: 30, location: "moon" }, "location must be office, phone or video"],
      [{ name: "x", duration_minutes: 30, location: "phone", requires_approval: "yes" }, "requires_approval must be true or false"],
    ];
    for (const [body, detail] of bad) {
      const res = await admin.post("/api/admin/meeting-types", body);
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(res.body).toEqual({ detail });
    }
  });
});

describe("free slots", () => {
  it("are the weekly hours on the firm's clock, with its offset, from the end of the notice period", async () => {
    const type = await meetingType({ name: "Intro call", duration_minutes: 30, location: "phone" });
    const { client } = await newClient();
    const tuesday = await slots(client, { type, from: "2027-03-02", to: "2027-03-02" });
    // Notice 24 h from Monday 8:30: Tuesday from 9:00 CST, every half hour, the last at 16:30.
    expect(tuesday[0]).toEqual({ start: "2027-03-02T09:00:00-06:00", end: "2027-03-02T09:30:00-06:00" });
    expect(tuesday.at(-1)).toEqual({ start: "2027-03-02T16:30:00-06:00", end: "2027-03-02T17:00:00-06:00" });
    expect(tuesday).toHaveLength(16);
    // Monday itself is inside the notice period.
    expect(await slots(client, { type, from: "2027-03-01", to: "2027-03-01" })).toEqual([]);
    // Weekends are closed.
    expect(await slots(client, { type, from: "2027-03-06", to: "2027-03-07" })).toEqual([]);
  });

  it("keep 9:00 at 9:00 across the spring-forward weekend, with the new offset", async () => {
    const type = await meetingType({ name: "Quarter hour", duration_minutes: 15 });
    const { client } = await newClient();
    const friday = await slots(client, { type, from: "2027-03-12", to: "2027-03-12" });
    const monday = await slots(client, { type, from: "2027-03-15", to: "2027-03-15" });
    expect(friday[0]!.start).toBe("2027-03-12T09:00:00-06:00");
    expect(monday[0]!.start).toBe("2027-03-15T09:00:00-05:00");
    expect(new Date(monday[0]!.start).getTime() - new Date(friday[0]!.start).getTime()).toBe(3 * 24 * HOUR - HOUR);
  });

  it("leave out days off and days past the horizon", async () => {
    const type = await meetingType({ name: "Day off check", duration_minutes: 60 });
    const { client } = await newClient();
    await setAvailability({ days_off: ["2027-03-03"], horizon_days: 3 });
    try {
      const days = new Set((await slots(client, { type })).map((slot) => slot.start.slice(0, 10)));
      // Today is Monday 03-01 (inside the notice), 03-03 is off, 03-04 is the last day of the horizon.
      expect([...days]).toEqual(["2027-03-02", "2027-03-04"]);
    } finally {
      await setAvailability({});
    }
  });

  it("leave out the US federal holidays unless the firm opens on them", async () => {
    const type = await meetingType({ name: "Holiday check", duration_minutes: 60 });
    const { client } = await newClient();
    const days = async () => new Set((await slots(client, { type })).map((slot) => slot.start.slice(0, 10)));
    await setAvailability({ horizon_days: 120 });
    try {
      // Memorial Day (Monday 05-31) and Juneteenth, observed on Friday 06-18 (the 19th is a Saturday).
      const closed = await days();
      for (const day of ["2027-05-28", "2027-06-01", "2027-06-17"]) expect(closed).toContain(day);
      for (const day of ["2027-05-31", "2027-06-18"]) expect(closed).not.toContain(day);
      expect((await setAvailability({ horizon_days: 120, skip_federal_holidays: false })).skip_federal_holidays).toBe(false);
      const open = await days();
      for (const day of ["2027-05-31", "2027-06-18"]) expect(open).toContain(day);
    } finally {
      await setAvailability({});
    }
  });

  it("refuse a query without a type and an appointment of someone else", async () => {
    const { client } = await newClient();
    const none = await client.get("/api/appointments/slots");
    expect(none.status).toBe(422);
    expect(none.body).toEqual({ detail: "Say which meeting type (type) or which of your appointments to move (appointment)" });
    const badBound = await client.get(`/api/appointments/slots?type=${await meetingType({ name: "Bounds", duration_minutes: 30 })}&from=soon`);
    expect(badBound.status).toBe(422);
    expect(badBound.body).toEqual({ detail: "from and to are dates (YYYY-MM-DD) or date-times with an offset" });
    expect((await new ApiClient(server.url).get("/api/appointments/slots?type=x")).status).toBe(401);
  });
});

describe("booking", () => {
  it("a meeting by phone asks for the number the firm calls, and keeps it where the firm reads the notes", async () => {
    const type = await meetingType({ name: "Phone check-in", duration_minutes: 30, location: "phone" });
    const { client } = await newClient();
    const none = await client.post("/api/appointments/book", { type, start: "2027-03-05T09:00:00-06:00", notes: "About the 1099", phone: " " });
    expect(none.status).toBe(422);
    expect(none.body).toEqual({ detail: "Enter the phone number we should call" });
    const bad = await client.post("/api/appointments/book", { type, start: "2027-03-05T09:00:00-06:00", phone: "call me" });
    expect(bad.body).toEqual({ detail: "Enter a phone number, such as (555) 123-4567" });
    const booked = await client.post("/api/appointments/book", {
      type,
      start: "2027-03-05T09:00:00-06:00",
      notes: "About the 1099",
      phone: "(555) 010-4477",
    });
    expect(booked.status, booked.text).toBe(201);
    expect(booked.body.description).toBe("Phone: (555) 010-4477\n\nAbout the 1099");
    await client.post(`/api/appointments/${booked.body.id}/cancel`, {});
  });

  it("books a free slot as scheduled; the time and its buffer are then taken for everyone", async () => {
    const type = await meetingType({ name: "Bookkeeping check-in", duration_minutes: 45, buffer_minutes: 15 });
    const short = await meetingType({ name: "Quick question", duration_minutes: 30 });
    const first = await newClient();
    const second = await newClient();
    const booked = await first.client.post("/api/appointments/book", { type, start: "2027-03-04T10:00:00-06:00", notes: "Bring the ledger" });
    expect(booked.status, booked.text).toBe(201);
    expect(booked.body).toEqual({
      id: expect.any(String),
      title: "Bookkeeping check-in",
      description: "Bring the ledger",
      appointment_date: "2027-03-04T16:00:00.000Z",
      ends_at: "2027-03-04T16:45:00.000Z",
      status: "scheduled",
      meeting_type_id: type,
      location: "office",
      location_detail: "",
      changeable_until: "2027-03-03T16:00:00.000Z",
    });
    const row = await server.db
      .selectFrom("appointments")
      .select([sql<Date>`lower(during)`.as("from"), sql<Date>`upper(during)`.as("to")])
      .where("id", "=", booked.body.id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ from: new Date("2027-03-04T16:00:00Z"), to: new Date("2027-03-04T17:00:00Z") });

    const thursday = (await slots(second.client, { type: short, from: "2027-03-04", to: "2027-03-04" })).map((slot) => slot.start.slice(11, 16));
    // 10:00-11:00 (45 minutes and 15 of buffer) is taken; 9:30 ends at 10:00 and fits.
    expect(thursday.slice(0, 4)).toEqual(["09:00", "09:30", "11:00", "11:30"]);
    const taken = await second.client.post("/api/appointments/book", { type: short, start: "2027-03-04T10:30:00-06:00" });
    expect(taken.status).toBe(409);
    expect(taken.body).toEqual({ detail: "That time is no longer available" });
    expect((await second.client.post("/api/appointments/book", { type: short, start: "2027-03-04T11:00:00-06:00" })).status).toBe(201);
    expect((await first.client.get("/api/appointments")).body.map((a: { id: string }) => a.id)).toEqual([booked.body.id]);
  });

  it("makes a requested appointment when the type needs the firm's approval, and the firm's approval schedules it", async () => {
    const type = await meetingType({ name: "New client consultation", duration_minutes: 60, requires_approval: true });
    const { client } = await newClient();
    const booked = await client.post("/api/appointments/book", { type, start: "2027-03-05T14:00:00-06:00" });
    expect(booked.status).toBe(201);
    expect(booked.body.status).toBe("requested");
    const other = await newClient();
    expect((await other.client.post("/api/appointments/book", { type, start: "2027-03-05T14:00:00-06:00" })).status).toBe(409);
    const approved = await admin.patch(`/api/admin/appointments/${booked.body.id}`, { status: "scheduled" });
    expect(approved.status).toBe(200);
    expect(approved.body).toMatchObject({ status: "scheduled", meeting_type_id: type, ends_at: "2027-03-05T21:00:00.000Z" });
  });

  it("refuses a time that is not offered, an unknown type, and bad input, with a detail", async () => {
    const type = await meetingType({ name: "Offered times", duration_minutes: 60 });
    const { client } = await newClient();
    const cases: Array<[Record<string, unknown>, number, string]> = [
      [{ type, start: "2027-03-04T10:15:00-06:00" }, 422, "That time is not one of the times offered for this meeting"],
      [{ type, start: "2027-03-06T10:00:00-06:00" }, 422, "That time is not one of the times offered for this meeting"],
      [{ type, start: "2027-03-04T16:30:00-06:00" }, 422, "That time is not one of the times offered for this meeting"],
      [{ type, start: "2027-03-01T13:00:00-06:00" }, 422, "That time is not one of the times offered for this meeting"],
      [{ type, start: "2027-06-01T10:00:00-05:00" }, 422, "That time is not one of the times offered for this meeting"],
      [{ type: "00000000-0000-4000-8000-000000000000", start: "2027-03-04T10:00:00-06:00" }, 404, "Meeting type not found"],
      [{ type, start: "2027-03-04T10:00:00" }, 422, "Please choose a valid date and time"],
      [{ type }, 422, "Please choose a valid date and time"],
      [{ type, start: "2027-03-04T12:00:00-06:00", notes: "x".repeat(2001) }, 422, "Notes must be at most 2000 characters"],
    ];
    for (const [body, status, detail] of cases) {
      const res = await client.post("/api/appointments/book", body);
      expect(res.status, JSON.stringify(body)).toBe(status);
      expect(res.body, JSON.stringify(body)).toEqual({ detail });
    }
  });

  it("keeps clear of the firm's own entries, which have no length, for an hour", async () => {
    const type = await meetingType({ name: "Around an entry", duration_minutes: 30 });
    const { user, client } = await newClient();
    const entry = await admin.post("/api/admin/appointments", { user_id: user.id, title: "Year-end", appointment_date: "2027-03-09T15:00:00Z" });
    expect(entry.status).toBe(201);
    const tuesday = (await slots(client, { type, from: "2027-03-09", to: "2027-03-09" })).map((slot) => slot.start.slice(11, 16));
    // The entry at 9:00 keeps 9:00-10:00.
    expect(tuesday.slice(0, 3)).toEqual(["10:00", "10:30", "11:00"]);
    expect((await client.post("/api/appointments/book", { type, start: "2027-03-09T09:30:00-06:00" })).status).toBe(409);
  });
});

describe("cancelling and moving one's own booking", () => {
  it("cancels up to the notice period before the start; the time is free again; a second cancel is refused", async () => {
    const type = await meetingType({ name: "Cancel me", duration_minutes: 60 });
    const { client } = await newClient();
    const booked = await client.post("/api/appointments/book", { type, start: "2027-03-10T13:00:00-06:00" });
    const id = booked.body.id as string;
    const cancelled = await client.post(`/api/appointments/${id}/cancel`);
    expect(cancelled.status).toBe(200);
    expect(cancelled.body).toMatchObject({ id, status: "cancelled", changeable_until: null });
    expect((await client.post(`/api/appointments/${id}/cancel`)).body).toEqual({ detail: "This appointment is already cancelled or completed" });
    const other = await newClient();
    expect((await other.client.post("/api/appointments/book", { type, start: "2027-03-10T13:00:00-06:00" })).status).toBe(201);
  });

  it("refuses to cancel or move within the notice period, and another client's appointment is not found", async () => {
    const type = await meetingType({ name: "Too late", duration_minutes: 60 });
    const { client } = await newClient();
    // Tuesday 10:00 CST is 25.5 hours after the clock's Monday 8:30; two hours on, it is inside the notice period.
    const booked = await client.post("/api/appointments/book", { type, start: "2027-03-02T10:00:00-06:00" });
    expect(booked.status).toBe(201);
    const id = booked.body.id as string;
    const stranger = await newClient();
    for (const res of [
      await stranger.client.post(`/api/appointments/${id}/cancel`),
      await stranger.client.post(`/api/appointments/${id}/reschedule`, { start: "2027-03-02T13:00:00-06:00" }),
    ]) {
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ detail: "Appointment not found" });
    }
    server.clock.advance(2 * HOUR);
    try {
      const late = "Appointments can be cancelled or moved online up to 24 hours before they start. Please call us to change this one.";
      const cancel = await client.post(`/api/appointments/${id}/cancel`);
      expect(cancel.status).toBe(409);
      expect(cancel.body).toEqual({ detail: late });
      const move = await client.post(`/api/appointments/${id}/reschedule`, { start: "2027-03-03T13:00:00-06:00" });
      expect(move.status).toBe(409);
      expect(move.body).toEqual({ detail: late });
      expect((await client.get("/api/appointments")).body[0]).toMatchObject({
        id,
        status: "scheduled",
        changeable_until: "2027-03-01T16:00:00.000Z",
      });
    } finally {
      server.clock.set(NOW);
      await freshAdmin();
    }
  });

  it("moves a booking to a free time, keeping its length and buffer, even overlapping its own old time", async () => {
    const type = await meetingType({ name: "Move me", duration_minutes: 60, buffer_minutes: 30 });
    const { client } = await newClient();
    const booked = await client.post("/api/appointments/book", { type, start: "2027-03-11T09:00:00-06:00" });
    const id = booked.body.id as string;
    const options = (await slots(client, { appointment: id, from: "2027-03-11", to: "2027-03-11" })).map((slot) => slot.start.slice(11, 16));
    expect(options.slice(0, 3)).toEqual(["09:00", "09:30", "10:00"]);
    const same = await client.post(`/api/appointments/${id}/reschedule`, { start: "2027-03-11T09:00:00-06:00" });
    expect(same.status).toBe(422);
    expect(same.body).toEqual({ detail: "That is the appointment's current time" });
    const moved = await client.post(`/api/appointments/${id}/reschedule`, { start: "2027-03-11T09:30:00-06:00" });
    expect(moved.status, moved.text).toBe(200);
    expect(moved.body).toMatchObject({ id, status: "scheduled", appointment_date: "2027-03-11T15:30:00.000Z", ends_at: "2027-03-11T16:30:00.000Z" });
    const row = await server.db
      .selectFrom("appointments")
      .select([sql<Date>`upper(during)`.as("until"), "ics_sequence"])
      .where("id", "=", id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ until: new Date("2027-03-11T17:00:00Z"), ics_sequence: 1 });
  });

  it("keeps the no-overlap guarantee when moving: onto another booking is 409, and the firm's move too", async () => {
    const type = await meetingType({ name: "Neighbours", duration_minutes: 60 });
    const a = await newClient();
    const b = await newClient();
    const first = await a.client.post("/api/appointments/book", { type, start: "2027-03-12T09:00:00-06:00" });
    const second = await b.client.post("/api/appointments/book", { type, start: "2027-03-12T11:00:00-06:00" });
    const onto = await a.client.post(`/api/appointments/${first.body.id}/reschedule`, { start: "2027-03-12T10:30:00-06:00" });
    expect(onto.status).toBe(409);
    expect(onto.body).toEqual({ detail: "That time is no longer available" });
    // The firm moves with the date alone; the constraint still refuses the overlap.
    const firmMove = await admin.patch(`/api/admin/appointments/${second.body.id}`, { appointment_date: "2027-03-12T15:30:00Z" });
    expect(firmMove.status).toBe(409);
    expect(firmMove.body).toEqual({ detail: "That time is no longer available" });
    const firmMoveOk = await admin.patch(`/api/admin/appointments/${second.body.id}`, { appointment_date: "2027-03-12T19:00:00Z" });
    expect(firmMoveOk.status).toBe(200);
    expect(firmMoveOk.body).toMatchObject({ appointment_date: "2027-03-12T19:00:00.000Z", ends_at: "2027-03-12T20:00:00.000Z" });
    // Bringing back a cancelled booking onto a taken time is refused the same way.
    expect((await a.client.post(`/api/appointments/${first.body.id}/cancel`)).status).toBe(200);
    const c = await newClient();
    expect((await c.client.post("/api/appointments/book", { type, start: "2027-03-12T09:00:00-06:00" })).status).toBe(201);
    expect((await admin.patch(`/api/admin/appointments/${first.body.id}`, { status: "scheduled" })).status).toBe(409);
  });

  it("does not move an appointment that was not booked online", async () => {
    const { user, client } = await newClient();
    const entry = await admin.post("/api/admin/appointments", { user_id: user.id, title: "Entry", appointment_date: "2027-03-16T15:00:00Z" });
    const res = await client.post(`/api/appointments/${entry.body.id}/reschedule`, { start: "2027-03-16T10:00:00-05:00" });
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ detail: "This appointment was not booked online; please contact us to change it" });
    expect((await client.get(`/api/appointments/slots?appointment=${entry.body.id}`)).status).toBe(409);
    expect((await client.post(`/api/appointments/${entry.body.id}/cancel`)).status).toBe(200);
  });
});

describe("the database", () => {
  it("refuses overlapping booked ranges itself (23P01), ignores cancelled ones and rows without a range", async () => {
    const { user } = await newClient();
    const insert = (start: string, end: string, status: "scheduled" | "requested" | "cancelled" | "completed" = "scheduled") =>
      server.db
        .insertInto("appointments")
        .values({
          account_id: user.id,
          title: "Direct",
          description: "",
          appointment_date: new Date(start),
          ends_at: new Date(end),
          status,
          during: sql<string>`tstzrange(${new Date(start)}, ${new Date(end)}, '[)')`,
        })
        .execute();
    await insert("2027-06-01T15:00:00Z", "2027-06-01T16:00:00Z");
    await insert("2027-06-01T16:00:00Z", "2027-06-01T17:00:00Z", "requested");
    await expect(insert("2027-06-01T15:30:00Z", "2027-06-01T16:30:00Z")).rejects.toMatchObject({
      code: "23P01",
      constraint: "appointments_no_overlap",
    });
    await expect(insert("2027-06-01T15:30:00Z", "2027-06-01T16:30:00Z", "requested")).rejects.toMatchObject({ code: "23P01" });
    await insert("2027-06-01T15:30:00Z", "2027-06-01T16:30:00Z", "cancelled");
    await insert("2027-06-01T15:30:00Z", "2027-06-01T16:30:00Z", "completed");
    await server.db
      .insertInto("appointments")
      .values({ account_id: user.id, title: "Old", description: "", appointment_date: new Date("2027-06-01T15:30:00Z"), status: "scheduled" })
      .execute();
    await server.db
      .insertInto("appointments")
      .values({ account_id: user.id, title: "Old", description: "", appointment_date: new Date("2027-06-01T15:30:00Z"), status: "scheduled" })
      .execute();
  });

  it("reads skipped and repeated wall times as the slot computation does", async () => {
    const cases = [
      ["2026-03-08 02:30", "America/Chicago"],
      ["2026-11-01 01:30", "America/Chicago"],
      ["2026-03-29 02:30", "Europe/Berlin"],
      ["2026-10-25 02:30", "Europe/Berlin"],
      ["2027-03-14 02:00", "America/Chicago"],
    ] as const;
    for (const [wall, zone] of cases) {
      const { at } = await sql<{ at: Date }>`select (${wall}::timestamp at time zone ${zone}) as at`.execute(server.db).then((r) => r.rows[0]!);
      const [date, time] = wall.split(" ") as [string, string];
      const [hours, minutes] = time.split(":").map(Number) as [number, number];
      expect(wallTimeToInstant(date, hours * 60 + minutes, zone).toISOString(), `${wall} ${zone}`).toBe(at.toISOString());
    }
  });
});

describe("the admin's week view", () => {
  it("lists the appointments starting in the week, by start, without cancelled ones", async () => {
    const type = await meetingType({ name: "Week view", duration_minutes: 30 });
    const { user, client } = await newClient();
    const later = await client.post("/api/appointments/book", { type, start: "2027-03-24T15:00:00-05:00" });
    const earlier = await client.post("/api/appointments/book", { type, start: "2027-03-22T09:00:00-05:00" });
    const gone = await client.post("/api/appointments/book", { type, start: "2027-03-23T09:00:00-05:00" });
    await client.post(`/api/appointments/${gone.body.id}/cancel`);
    const res = await admin.get(`/api/admin/calendar?${new URLSearchParams({ from: "2027-03-22T00:00:00-05:00", to: "2027-03-29T00:00:00-05:00" })}`);
    expect(res.status).toBe(200);
    expect(res.body.map((a: { id: string }) => a.id)).toEqual([earlier.body.id, later.body.id]);
    expect(res.body[0]).toMatchObject({ user_id: user.id, user_name: user.name, title: "Week view", ends_at: "2027-03-22T14:30:00.000Z" });
    const tooLong = await admin.get(`/api/admin/calendar?${new URLSearchParams({ from: "2027-03-01T00:00:00Z", to: "2027-05-01T00:00:00Z" })}`);
    expect(tooLong.status).toBe(422);
    expect(tooLong.body).toEqual({ detail: "Ask for at most 42 days at a time" });
    expect((await client.get("/api/admin/calendar?from=2027-03-22T00:00:00Z&to=2027-03-29T00:00:00Z")).status).toBe(403);
  });
});
