// Issue 31, part B: the hours the site shows follow the firm's availability (or its own words), the
// legal pages' texts are site content, the Tax Forms tab's year is a firm setting, and the first-day
// checklist ticks itself from the data.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_TESTIMONIALS } from "../../server/domains/site/defaults.ts";
import { PUBLIC_SITE_DATA_ID } from "../../server/domains/site/public-data.ts";
import { createUser, loginClient } from "../helpers/factories.ts";
import { ApiClient } from "../helpers/http.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

let clientDir: string;
let server: TestServer;
let admin: ApiClient;
let anon: ApiClient;

beforeAll(async () => {
  clientDir = fs.mkdtempSync(path.join(os.tmpdir(), "portal-client-"));
  fs.writeFileSync(path.join(clientDir, "index.html"), "<!doctype html><html><head><title>Portal</title></head><body></body></html>");
  server = await startTestServer({ app: { clientDir } });
  admin = await loginClient(server.url, await createUser(server.db, { is_admin: true }), "admin");
  anon = new ApiClient(server.url);
});
afterAll(async () => {
  await server?.close();
  fs.rmSync(clientDir, { recursive: true, force: true });
});

const dataBlock = new RegExp(`<script type="application/json" id="${PUBLIC_SITE_DATA_ID}">(.*?)</script>`, "s");
/** The site data embedded in a public page's HTML. */
async function embedded(page: string) {
  const res = await anon.get(page);
  expect(res.status).toBe(200);
  return JSON.parse(res.text.match(dataBlock)![1]!);
}
const shownHours = async () => (await anon.get("/api/site-content")).body.contact.hours.value as string;
const checklist = async () =>
  Object.fromEntries(((await admin.get("/api/admin/setup-checklist")).body.items as Array<{ id: string; done: boolean }>).map((i) => [i.id, i.done]));
const siteEvents = () =>
  server.db.selectFrom("activity_events").select(["action", "detail"]).where("action", "=", "site.update").orderBy("occurred_at").execute();

describe("first-day checklist", () => {
  it("starts with nothing done on a new install", async () => {
    const res = await admin.get("/api/admin/setup-checklist");
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      hidden: false,
      items: ["firm_name", "logo", "contact", "hours", "testimonials", "video", "availability", "invite_clients"].map((id) => ({ id, done: false })),
    });
  });

  it("counts the samples hidden or each confirmed, and the welcome modal turned off, as those steps done", async () => {
    expect(await checklist()).toMatchObject({ testimonials: false, video: false });
    expect((await admin.patch("/api/admin/site-options", { testimonials: false })).status).toBe(200);
    expect((await admin.patch("/api/admin/site-options", { welcomeModal: false })).status).toBe(200);
    expect(await checklist()).toMatchObject({ testimonials: true, video: true });
    expect((await admin.patch("/api/admin/site-options", { testimonials: true, welcomeModal: true })).status).toBe(200);
    expect(await checklist()).toMatchObject({ testimonials: false, video: false });
    // One real quote beside the samples is not done (issue 48); confirming every sample is.
    const own = { text: "Great work.", author: "Ann Lee", business: "Bakery" };
    expect((await admin.put("/api/admin/testimonials", { testimonials: [...DEFAULT_TESTIMONIALS, own] })).status).toBe(200);
    expect(await checklist()).toMatchObject({ testimonials: false });
    for (let index = 0; index < DEFAULT_TESTIMONIALS.length; index++) {
      expect((await admin.post("/api/admin/testimonials/confirm", { index })).status).toBe(200);
    }
    expect(await checklist()).toMatchObject({ testimonials: true, video: false });
    // Back to a new install's state for the next test, which walks every step from the start.
    await server.db.deleteFrom("site_content").where("section", "=", "testimonials").execute();
    expect(await checklist()).toMatchObject({ testimonials: false });
  });

  it("ticks each step as the firm does it, and not for the shipped values stored by Initialize", async () => {
    expect((await admin.post("/api/admin/init-site-content", {})).status).toBe(200);
    expect(Object.values(await checklist()).some(Boolean)).toBe(false);

    await admin.put("/api/admin/site-content/company/name", { value: "Lakeside Tax & Books" });
    await admin.put("/api/admin/site-content/company/logo", { value: "/images/lakeside-logo.png" });
    await admin.put("/api/admin/site-content/contact/phone", { value: "(312) 555-0199" });
    await admin.put("/api/admin/site-content/contact/email", { value: "office@lakeside.example.com" });
    expect(await checklist()).toMatchObject({ firm_name: true, logo: true, contact: false });
    await admin.put("/api/admin/site-content/contact/address", { value: "9 Lake Street, Chicago, IL 60601" });
    await admin.put("/api/admin/testimonials", { testimonials: [{ text: "Great work.", author: "Ann Lee", business: "Bakery" }] });
    await admin.put("/api/admin/site-content/welcome/video", { value: "/videos/lakeside.mp4" });
    expect(await checklist()).toMatchObject({ contact: true, testimonials: true, video: true, hours: false, availability: false });

    // The shipped Monday-Friday 9-5 is not a choice; other hours are, and so are the firm's own words.
    expect((await admin.put("/api/admin/availability", { weekly: [{ weekday: 1, start: "08:00", end: "16:00" }] })).status).toBe(200);
    expect(await checklist()).toMatchObject({ hours: true, availability: false });
    const meetingType = await admin.post("/api/admin/meeting-types", { name: "Tax consultation", duration_minutes: 30, location: "office" });
    expect(meetingType.status).toBe(201);
    expect(await checklist()).toMatchObject({ availability: true, invite_clients: false });

    await createUser(server.db);
    expect(Object.values(await checklist()).every(Boolean)).toBe(true);
  });

  it("can be hidden and shown again, each change in the activity trail", async () => {
    const hidden = await admin.put("/api/admin/setup-checklist", { hidden: true });
    expect(hidden.status).toBe(200);
    expect(hidden.body.hidden).toBe(true);
    expect((await admin.get("/api/admin/setup-checklist")).body.hidden).toBe(true);
    expect((await admin.put("/api/admin/setup-checklist", { hidden: false })).body.hidden).toBe(false);
    expect((await admin.put("/api/admin/setup-checklist", { hidden: "yes" })).status).toBe(422);
    const details = (await siteEvents()).map((e) => e.detail);
    expect(details).toEqual(
      expect.arrayContaining([
        { setting: "setup_checklist", hidden: true },
        { setting: "setup_checklist", hidden: false },
      ]),
    );
  });
});

describe("hours", () => {
  it("follow the weekly availability, on the API and in the served pages, until the firm writes its own", async () => {
    await admin.put("/api/admin/availability", { weekly: [1, 2, 3, 4, 5].map((weekday) => ({ weekday, start: "09:00", end: "17:00" })) });
    expect(await shownHours()).toBe("Monday to Friday, 9 AM-5 PM");
    expect((await embedded("/")).content.contact.hours.value).toBe("Monday to Friday, 9 AM-5 PM");

    const weekly = [...[1, 2, 3, 4].map((weekday) => ({ weekday, start: "08:30", end: "16:00" })), { weekday: 6, start: "10:00", end: "14:00" }];
    expect((await admin.put("/api/admin/availability", { weekly })).status).toBe(200);
    const expected = "Monday to Thursday, 8:30 AM-4 PM; Saturday, 10 AM-2 PM";
    expect(await shownHours()).toBe(expected);
    // The cached landing page is rendered again: a change of the weekly hours bumps its counter.
    expect((await embedded("/")).content.contact.hours.value).toBe(expected);

    expect((await admin.put("/api/admin/site-content/contact/hours", { value: "Weekdays by appointment, evenings in tax season" })).status).toBe(200);
    expect(await shownHours()).toBe("Weekdays by appointment, evenings in tax season");
    expect((await admin.get("/api/admin/site-content")).body.contact.hours).toEqual({ value: "Weekdays by appointment, evenings in tax season" });

    // Emptied, the hours follow the availability again.
    expect((await admin.put("/api/admin/site-content/contact/hours", { value: "  " })).status).toBe(200);
    expect(await shownHours()).toBe(expected);
    await admin.put("/api/admin/availability", { weekly: [] });
    expect(await shownHours()).toBe("By appointment");
  });

  it("refuses words longer than 200 characters", async () => {
    const res = await admin.put("/api/admin/site-content/contact/hours", { value: "x".repeat(201) });
    expect(res.status).toBe(422);
    expect(res.body.detail).toContain("Hours must be at most 200 characters");
  });
});

describe("legal pages", () => {
  it("have built-in texts for a US tax practice, served with the pages /privacy and /terms", async () => {
    const content = (await anon.get("/api/site-content")).body;
    expect(content.legal.privacy.value).toContain("Gramm-Leach-Bliley Act");
    for (const heading of [
      "## What we collect",
      "## How we use it",
      "## Who we share it with",
      "## How we protect it",
      "## Your choices",
      "## Contact us",
    ]) {
      expect(content.legal.privacy.value).toContain(heading);
    }
    expect(content.legal.terms.value).toContain("## Your portal account");
    for (const page of ["/privacy", "/terms", "/privacy/"]) expect((await embedded(page)).content.legal.terms.value).toBe(content.legal.terms.value);
  });

  it("are edited as site content and kept as typed text (the pages never render it as HTML)", async () => {
    const text = "## Our promise\n\nWe never sell <b>your</b> data.";
    expect((await admin.put("/api/admin/site-content/legal/privacy", { value: text })).status).toBe(200);
    expect((await anon.get("/api/site-content")).body.legal.privacy.value).toBe(text);
    const page = await anon.get("/privacy");
    expect(page.text).not.toContain("<b>your</b>");
    expect((await embedded("/privacy")).content.legal.privacy.value).toBe(text);
    expect((await admin.delete("/api/admin/site-content/legal/privacy")).status).toBe(200);
    expect((await anon.get("/api/site-content")).body.legal.privacy.value).toContain("Gramm-Leach-Bliley Act");
  });

  it("cannot be edited by a client or a visitor", async () => {
    const client = await loginClient(server.url, await createUser(server.db));
    expect((await client.put("/api/admin/site-content/legal/terms", { value: "Mine now" })).status).toBe(403);
    expect((await anon.put("/api/admin/site-content/legal/terms", { value: "Mine now" })).status).toBe(401);
  });
});

describe("tax year", () => {
  const latest = new Date().getUTCFullYear() + 1;

  it("is 2024 until the firm changes it, for clients and the admin", async () => {
    const client = await loginClient(server.url, await createUser(server.db));
    expect((await client.get("/api/tax-year")).body).toEqual({ tax_year: 2024 });
    expect((await admin.get("/api/admin/tax-year")).body).toEqual({ tax_year: 2024 });
  });

  it("refuses a year outside 2020 to next year, or not a whole number, with a 4xx that says why", async () => {
    for (const tax_year of [2019, latest + 1]) {
      const res = await admin.put("/api/admin/tax-year", { tax_year });
      expect(res.status).toBe(422);
      expect(res.body.detail).toMatch(new RegExp(`tax_year must be a year from 2020 to (${latest}|${latest - 1})`));
    }
    for (const tax_year of ["2025", 2025.5, null]) {
      const res = await admin.put("/api/admin/tax-year", { tax_year });
      expect(res.status).toBe(422);
      expect(res.body.detail).toContain("tax_year must be a year, like 2025");
    }
    expect((await admin.get("/api/admin/tax-year")).body).toEqual({ tax_year: 2024 });
  });

  it("is changed by the admin only, shows to clients, and is recorded in the activity trail", async () => {
    const client = await loginClient(server.url, await createUser(server.db));
    expect((await client.put("/api/admin/tax-year", { tax_year: 2025 })).status).toBe(403);
    expect((await anon.put("/api/admin/tax-year", { tax_year: 2025 })).status).toBe(401);
    expect((await anon.get("/api/tax-year")).status).toBe(401);

    const saved = await admin.put("/api/admin/tax-year", { tax_year: 2025 });
    expect(saved.status).toBe(200);
    expect(saved.body).toEqual({ tax_year: 2025 });
    expect((await client.get("/api/tax-year")).body).toEqual({ tax_year: 2025 });
    expect((await siteEvents()).map((e) => e.detail)).toContainEqual({ setting: "tax_year", tax_year: 2025 });
  });
});

describe("setup checklist access", () => {
  it("is the firm's: a client gets 403 and a visitor 401", async () => {
    const client = await loginClient(server.url, await createUser(server.db));
    expect((await client.get("/api/admin/setup-checklist")).status).toBe(403);
    expect((await client.put("/api/admin/setup-checklist", { hidden: true })).status).toBe(403);
    expect((await anon.get("/api/admin/setup-checklist")).status).toBe(401);
  });
});
