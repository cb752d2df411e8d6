// Issue 28, item 4: one client booked all 144 free times in 4.8 s, and 40 moves in 2.3 s (two
// emails each) held up a password reset's mail. A client now holds at most the firm's number of
// upcoming self-booked appointments (3 by default), and books, moves and cancels at most
// MAX_BOOKING_CHANGES_PER_CLIENT_PER_HOUR times an hour; refusals are 409 or 429 with a detail.
// The server's clock is Monday 2027-03-01 08:30 in Chicago.
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MAX_BOOKING_CHANGES_PER_CLIENT_PER_HOUR } from "../../server/auth/rate-limit.ts";
import { createUser, loginClient, type UserFixture } from "../helpers/factories.ts";
import type { ApiClient } from "../helpers/http.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

const NOW = new Date("2027-03-01T14:30:00Z");
const WEEKDAYS_9_TO_5 = [1, 2, 3, 4, 5].map((weekday) => ({ weekday, start: "09:00", end: "17:00" }));

let server: TestServer;
let admin: ApiClient;
let type: string;

beforeAll(async () => {
  server = await startTestServer();
  server.clock.set(NOW);
  admin = await loginClient(server.url, await createUser(server.db, { is_admin: true }), "admin");
  const res = await admin.post("/api/admin/meeting-types", { name: "Quick call", duration_minutes: 30, buffer_minutes: 0, location: "phone" });
  expect(res.status, res.text).toBe(201);
  type = res.body.id as string;
});
afterAll(() => server.close());

async function newClient(): Promise<{ user: UserFixture; client: ApiClient }> {
  const user = await createUser(server.db);
  return { user, client: await loginClient(server.url, user) };
}

async function setAvailability(body: Record<string, unknown>) {
  const res = await admin.put("/api/admin/availability", { weekly: WEEKDAYS_9_TO_5, min_notice_hours: 24, horizon_days: 60, ...body });
  expect(res.status, res.text).toBe(200);
  return res.body;
}

async function freeTimes(client: ApiClient): Promise<string[]> {
  const res = await client.get(`/api/appointments/slots?${new URLSearchParams({ type, from: "2027-03-02", to: "2027-03-05" })}`);
  expect(res.status, res.text).toBe(200);
  return (res.body as Array<{ start: string }>).map((slot) => slot.start);
}

async function upcoming(userId: string): Promise<number> {
  const { rows } = await sql<{ n: number }>`select count(*)::int as n from appointments
    where account_id = ${userId} and status in ('requested', 'scheduled')`.execute(server.db);
  return rows[0]!.n;
}

describe("one client and the free times", () => {
  it("books 3 upcoming times, not every free one: 409 with a detail past the cap, then 429", async () => {
    const { user, client } = await newClient();
    const times = await freeTimes(client);
    expect(times.length).toBeGreaterThan(40);
    const statuses: number[] = [];
    const details: string[] = [];
    for (const start of times.slice(0, MAX_BOOKING_CHANGES_PER_CLIENT_PER_HOUR + 4)) {
      const res = await client.post("/api/appointments/book", { type, start });
      statuses.push(res.status);
      details.push(res.body.detail);
    }
    expect(statuses).toEqual([201, 201, 201, ...Array(MAX_BOOKING_CHANGES_PER_CLIENT_PER_HOUR - 3).fill(409), ...Array(4).fill(429)]);
    expect(details[3]).toBe("You already have 3 upcoming appointments booked online, the most we allow. Please cancel or move one, or call us.");
    expect(details.at(-1)).toMatch(
      /^You have booked, moved or cancelled appointments many times in the last hour\. Please try again in \d+ minutes?\.$/,
    );
    expect(await upcoming(user.id)).toBe(3);
    // Everyone else still finds the other times free.
    const other = await newClient();
    expect(await freeTimes(other.client)).toHaveLength(times.length - 3);
  });

  it("holds the cap against bookings sent all at once", async () => {
    const { user, client } = await newClient();
    const times = (await freeTimes(client)).slice(-8);
    const results = await Promise.all(times.map((start) => client.post("/api/appointments/book", { type, start })));
    expect(results.filter((r) => r.status === 201)).toHaveLength(3);
    expect(results.filter((r) => r.status !== 201).every((r) => r.status === 409 || r.status === 429)).toBe(true);
    expect(await upcoming(user.id)).toBe(3);
  });

  it("uses the number the firm sets, which a cancellation or a past appointment frees", async () => {
    const saved = await setAvailability({ max_upcoming_bookings: 1 });
    expect(saved.max_upcoming_bookings).toBe(1);
    try {
      const { user, client } = await newClient();
      const [first, second] = await freeTimes(client);
      const booked = await client.post("/api/appointments/book", { type, start: first });
      expect(booked.status, booked.text).toBe(201);
      const refused = await client.post("/api/appointments/book", { type, start: second });
      expect(refused.status).toBe(409);
      expect(refused.body.detail).toBe(
        "You already have 1 upcoming appointment booked online, the most we allow. Please cancel or move one, or call us.",
      );
      expect((await client.post(`/api/appointments/${booked.body.id}/cancel`)).status).toBe(200);
      expect((await client.post("/api/appointments/book", { type, start: second })).status).toBe(201);
      // An appointment in the past does not count.
      await sql`update appointments set appointment_date = appointment_date - interval '30 days', ends_at = ends_at - interval '30 days',
        during = tstzrange(lower(during) - interval '30 days', upper(during) - interval '30 days') where account_id = ${user.id}`.execute(server.db);
      expect((await client.post("/api/appointments/book", { type, start: first })).status).toBe(201);
    } finally {
      await setAvailability({});
    }
    for (const bad of [0, 51, 2.5, "3"]) {
      const res = await admin.put("/api/admin/availability", { weekly: WEEKDAYS_9_TO_5, max_upcoming_bookings: bad });
      expect(res.status).toBe(422);
      expect(res.body.detail).toMatch(/max_upcoming_bookings/);
    }
    expect((await admin.get("/api/admin/availability")).body.max_upcoming_bookings).toBe(3);
  });
});

describe("changes in a burst", () => {
  it("refuses moves past the hourly limit with 429, so they stop queueing mail", async () => {
    const { client } = await newClient();
    const times = await freeTimes(client);
    const booked = await client.post("/api/appointments/book", { type, start: times[0] });
    expect(booked.status).toBe(201);
    const statuses: number[] = [];
    for (let i = 1; i <= 40; i++) statuses.push((await client.post(`/api/appointments/${booked.body.id}/reschedule`, { start: times[i] })).status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(MAX_BOOKING_CHANGES_PER_CLIENT_PER_HOUR - 1);
    expect(statuses.slice(MAX_BOOKING_CHANGES_PER_CLIENT_PER_HOUR - 1).every((s) => s === 429)).toBe(true);
    const { rows } = await sql<{ n: number }>`select count(*)::int as n from pgboss.job
      where data->>'appointmentId' = ${booked.body.id}`.execute(server.db);
    expect(rows[0]!.n).toBe(2 * MAX_BOOKING_CHANGES_PER_CLIENT_PER_HOUR);
    // Cancelling is a change too.
    expect((await client.post(`/api/appointments/${booked.body.id}/cancel`)).status).toBe(429);
  });
});
