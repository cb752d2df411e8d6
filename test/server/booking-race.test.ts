/*
 * Twenty clients take one time at once, over HTTP: exactly one booking succeeds and nineteen get
 * 409 "That time is no longer available". Then twenty bookings are moved onto one free time at
 * once, with the same outcome. On Postgres (DATABASE_URL) the requests run in parallel
 * transactions and the exclusion constraint decides; on the embedded database they queue on its one
 * connection. Run both ways.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUser, loginClient } from "../helpers/factories.ts";
import type { ApiClient, ApiResponse } from "../helpers/http.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

const RACERS = 20;
const SLOT = "2027-03-04T10:00:00-06:00";

let server: TestServer;
let clients: ApiClient[];
let type: string;

beforeAll(async () => {
  server = await startTestServer();
  server.clock.set(new Date("2027-03-01T14:30:00Z"));
  const admin = await loginClient(server.url, await createUser(server.db, { is_admin: true }), "admin");
  // A long day and short meetings: room for every client's own booking below.
  const weekly = [1, 2, 3, 4, 5].map((weekday) => ({ weekday, start: "06:00", end: "22:00" }));
  expect((await admin.put("/api/admin/availability", { weekly })).status).toBe(200);
  const created = await admin.post("/api/admin/meeting-types", { name: "Race", duration_minutes: 30, buffer_minutes: 10, location: "phone" });
  type = created.body.id;
  clients = [];
  for (let i = 0; i < RACERS; i++) clients.push(await loginClient(server.url, await createUser(server.db)));
}, 120_000);
afterAll(() => server.close());

function expectOneWinner(results: ApiResponse[], okStatus: number) {
  const statuses = results.map((res) => res.status);
  expect(
    statuses.filter((status) => status === okStatus),
    statuses.join(","),
  ).toHaveLength(1);
  const losers = results.filter((res) => res.status !== okStatus);
  expect(losers).toHaveLength(RACERS - 1);
  for (const res of losers)
    expect({ status: res.status, body: res.body }).toEqual({ status: 409, body: { detail: "That time is no longer available" } });
}

async function holdersOf(start: string) {
  return server.db
    .selectFrom("appointments")
    .select(["id", "account_id as user_id"])
    .where("appointment_date", "=", new Date(start))
    .where("status", "in", ["requested", "scheduled"])
    .execute();
}

describe(`${process.env.DATABASE_URL ? "Postgres" : "the embedded database"}: ${RACERS} bookings of one time at once`, () => {
  it("exactly one books it; the others get 409", async () => {
    const results = await Promise.all(clients.map((client) => client.post("/api/appointments/book", { type, start: SLOT })));
    expectOneWinner(results, 201);
    const holders = await holdersOf(SLOT);
    expect(holders).toHaveLength(1);
    expect(holders[0]!.id).toBe(results.find((res) => res.status === 201)!.body.id);
  });

  it("exactly one moves onto a free time; the others keep theirs", async () => {
    // Each client's own booking, on the hour from 6:00 on Friday and on Tuesday.
    const own: string[] = [];
    for (const [i, client] of clients.entries()) {
      const start = new Date(Date.parse(i < 10 ? "2027-03-05T12:00:00Z" : "2027-03-09T02:00:00Z") + i * 60 * 60_000).toISOString();
      const res = await client.post("/api/appointments/book", { type, start });
      expect(res.status, res.text).toBe(201);
      own.push(res.body.id as string);
    }
    const target = "2027-03-08T10:00:00-06:00";
    const results = await Promise.all(clients.map((client, i) => client.post(`/api/appointments/${own[i]}/reschedule`, { start: target })));
    expectOneWinner(results, 200);
    const holders = await holdersOf(target);
    expect(holders.map((h) => h.id)).toEqual([results.find((res) => res.status === 200)!.body.id]);
    const stillBooked = await server.db.selectFrom("appointments").select("id").where("id", "in", own).where("status", "=", "scheduled").execute();
    expect(stillBooked).toHaveLength(RACERS);
  });
});
