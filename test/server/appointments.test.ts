import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../server/config.ts";
import { zonedTime } from "../../server/domains/appointments/service.ts";
import { createUser, loginClient, type UserFixture } from "../helpers/factories.ts";
import { ApiClient } from "../helpers/http.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

let server: TestServer;
let adminClient: ApiClient;

beforeAll(async () => {
  server = await startTestServer();
  adminClient = await loginClient(server.url, await createUser(server.db, { is_admin: true }), "admin");
});
afterAll(() => server.close());

const DAY = 24 * 60 * 60 * 1000;

async function clientWithAppointments(): Promise<{ user: UserFixture; client: ApiClient }> {
  const user = await createUser(server.db);
  return { user, client: await loginClient(server.url, user) };
}

describe("GET /api/appointments", () => {
  it("needs a session", async () => {
    expect((await new ApiClient(server.url).get("/api/appointments")).status).toBe(401);
  });

  it("lists only the caller's own, upcoming first (soonest first), then past ones", async () => {
    const { user, client } = await clientWithAppointments();
    const other = await createUser(server.db);
    const now = server.clock.now().getTime();
    const at = (offsetDays: number) => new Date(now + offsetDays * DAY);
    await server.db
      .insertInto("appointments")
      .values([
        { account_id: user.id, title: "Past recent", appointment_date: at(-1), status: "completed", description: "" },
        { account_id: user.id, title: "Later", appointment_date: at(10), status: "scheduled", description: "Bring W-2s" },
        { account_id: user.id, title: "Soon", appointment_date: at(2), status: "scheduled", description: "" },
        { account_id: user.id, title: "Past old", appointment_date: at(-30), status: "cancelled", description: "" },
        { account_id: other.id, title: "Someone else's", appointment_date: at(1), status: "scheduled", description: "" },
      ])
      .execute();

    const res = await client.get("/api/appointments");
    expect(res.status).toBe(200);
    expect(res.body.map((a: { title: string }) => a.title)).toEqual(["Soon", "Later", "Past recent", "Past old"]);
    expect(res.body[1]).toEqual({
      id: expect.any(String),
      title: "Later",
      description: "Bring W-2s",
      appointment_date: at(10).toISOString(),
      status: "scheduled",
      meeting_type_id: null,
      ends_at: null,
      location: null,
      location_detail: null,
      // Changed online up to the firm's notice (24 hours) before it.
      changeable_until: new Date(at(10).getTime() - DAY).toISOString(),
    });
  });
});

describe("a client's appointment request", () => {
  it("creates a requested appointment at the start of the preferred window", async () => {
    const { client } = await clientWithAppointments();
    const res = await client.post("/api/appointments", {
      title: "Year-end planning",
      preferredDate: "2030-03-12",
      preferredTime: "afternoon",
      notes: "About the new LLC",
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ title: "Year-end planning", status: "requested" });
    expect(res.body.description).toBe("Preferred time: Afternoon (12 PM-5 PM)\n\nAbout the new LLC");
    // 12:00 in Chicago on a CDT day is 17:00 UTC.
    expect(res.body.appointment_date).toBe("2030-03-12T17:00:00.000Z");
    expect((await client.get("/api/appointments")).body).toEqual([res.body]);
  });

  it("places the window on the firm's clock from FIRM_TIME_ZONE, and tells the pages which zone that is", async () => {
    const eastern = await startTestServer({ env: { FIRM_TIME_ZONE: "America/New_York" } });
    try {
      const client = await loginClient(eastern.url, await createUser(eastern.db));
      const res = await client.post("/api/appointments", { title: "Planning", preferredDate: "2030-03-12", preferredTime: "afternoon" });
      // 12:00 in New York on an EDT day is 16:00 UTC.
      expect(res.body.appointment_date).toBe("2030-03-12T16:00:00.000Z");
      const links = await fetch(`${eastern.url}/trpc/site.links`).then((r) => r.json());
      expect(links.result.data.json.firmTimeZone).toBe("America/New_York");
    } finally {
      await eastern.close();
    }
    expect(() => loadConfig({ FIRM_TIME_ZONE: "Mars/Olympus_Mons" })).toThrow(/FIRM_TIME_ZONE: must be an IANA time zone/);
  });

  it("refuses a past date and bad input with a detail", async () => {
    const { client } = await clientWithAppointments();
    const past = await client.post("/api/appointments", { title: "Late", preferredDate: "2020-01-01", preferredTime: "morning" });
    expect(past.status).toBe(422);
    expect(past.body).toEqual({ detail: "Please choose a date from today on" });
    const noTitle = await client.post("/api/appointments", { title: " ", preferredDate: "2030-01-01", preferredTime: "morning" });
    expect(noTitle.body).toEqual({ detail: "Please fill in all fields" });
    const badTime = await client.post("/api/appointments", { title: "x", preferredDate: "2030-01-01", preferredTime: "night" });
    expect(badTime.body).toEqual({ detail: "Preferred time must be morning, afternoon or evening" });
  });

  it("converts wall-clock times across daylight saving changes", () => {
    expect(zonedTime("2030-01-15", 9, "America/Chicago").toISOString()).toBe("2030-01-15T15:00:00.000Z");
    expect(zonedTime("2030-07-15", 17, "America/Chicago").toISOString()).toBe("2030-07-15T22:00:00.000Z");
    expect(zonedTime("2030-03-10", 9, "America/Chicago").toISOString()).toBe("2030-03-10T14:00:00.000Z");
  });
});

describe("admin appointments", () => {
  it("creates, reschedules and sets the status of a client's appointment", async () => {
    const { user, client } = await clientWithAppointments();
    const created = await adminClient.post("/api/admin/appointments", {
      user_id: user.id,
      title: "Quarterly review",
      description: "Q1 numbers",
      appointment_date: "2030-04-02T15:00:00Z",
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      title: "Quarterly review",
      status: "scheduled",
      appointment_date: "2030-04-02T15:00:00.000Z",
      user_id: user.id,
      user_name: user.name,
      user_email: user.email,
    });

    const moved = await adminClient.patch(`/api/admin/appointments/${created.body.id}`, { appointment_date: "2030-04-09T16:30:00Z" });
    expect(moved.status).toBe(200);
    expect(moved.body.appointment_date).toBe("2030-04-09T16:30:00.000Z");
    const done = await adminClient.patch(`/api/admin/appointments/${created.body.id}`, { status: "completed" });
    expect(done.body).toMatchObject({ status: "completed", appointment_date: "2030-04-09T16:30:00.000Z" });

    expect((await client.get("/api/appointments")).body).toEqual([
      expect.objectContaining({ id: created.body.id, status: "completed", appointment_date: "2030-04-09T16:30:00.000Z" }),
    ]);

    const list = await adminClient.get(`/api/admin/appointments?user_id=${user.id}`);
    expect(list.status).toBe(200);
    expect(list.headers.get("x-total-count")).toBe("1");
    expect(list.body[0]).toMatchObject({ id: created.body.id, user_name: user.name });
  });

  it("takes a date-time with an offset from 2000 to 2100 and refuses null, numbers, bare dates and absurd years", async () => {
    const { user } = await clientWithAppointments();
    const create = (appointment_date: unknown) => adminClient.post("/api/admin/appointments", { user_id: user.id, title: "Dated", appointment_date });
    const offset = await create("2030-01-01T10:00:00+02:00");
    expect(offset.status).toBe(201);
    expect(offset.body.appointment_date).toBe("2030-01-01T08:00:00.000Z");

    const refused = [
      null,
      1893456000000,
      "2030-01-01",
      "2030-01-01T10:00:00",
      "1999-12-31T23:59:59Z",
      "2101-01-01T00:00:00Z",
      "-001000-01-01T00:00:00Z",
      "0000-01-01T00:00:00Z",
      "soon",
    ];
    for (const value of refused) {
      const res = await create(value);
      expect(res.status, JSON.stringify(value)).toBe(422);
      expect(res.body.detail, JSON.stringify(value)).toMatch(
        /^Please choose a valid date and time|^The date must be between the years 2000 and 2100$/,
      );
      const moved = await adminClient.patch(`/api/admin/appointments/${offset.body.id}`, { appointment_date: value });
      expect(moved.status, JSON.stringify(value)).toBe(422);
    }
    expect((await create("1999-12-31T23:59:59Z")).body.detail).toBe("The date must be between the years 2000 and 2100");
    const rows = await server.db.selectFrom("appointments").select("appointment_date").where("account_id", "=", user.id).execute();
    expect(rows.map((r) => r.appointment_date.toISOString())).toEqual(["2030-01-01T08:00:00.000Z"]);
  });

  it("takes a Date over tRPC (superjson) and refuses one outside 2000 to 2100", async () => {
    const { user } = await clientWithAppointments();
    const create = (iso: string) =>
      adminClient.request("POST", "/trpc/admin.appointments.create", {
        body: JSON.stringify({ json: { user_id: user.id, title: "Dated", appointment_date: iso }, meta: { values: { appointment_date: ["Date"] } } }),
        headers: { "Content-Type": "application/json" },
      });
    const ok = await create("2031-06-01T09:00:00.000Z");
    expect(ok.status, ok.text).toBe(200);
    expect(ok.body.result.data.json.appointment_date).toBe("2031-06-01T09:00:00.000Z");
    const old = await create("1970-01-01T00:00:00.000Z");
    expect(old.status).toBe(400);
    expect(old.body.error.json.message).toContain("The date must be between the years 2000 and 2100");
  });

  it("refuses an unknown status, client or appointment", async () => {
    const { user } = await clientWithAppointments();
    const badStatus = await adminClient.post("/api/admin/appointments", {
      user_id: user.id,
      title: "x",
      appointment_date: "2030-01-01T10:00:00Z",
      status: "postponed",
    });
    expect(badStatus.status).toBe(422);
    const unknownUser = await adminClient.post("/api/admin/appointments", {
      user_id: "00000000-0000-4000-8000-000000000000",
      title: "x",
      appointment_date: "2030-01-01T10:00:00Z",
    });
    expect(unknownUser.status).toBe(404);
    expect(unknownUser.body).toEqual({ detail: "User not found" });
    const unknown = await adminClient.patch("/api/admin/appointments/00000000-0000-4000-8000-000000000000", { status: "cancelled" });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ detail: "Appointment not found" });
  });
});
