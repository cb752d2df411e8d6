/*
 * Samples that stay samples (issue 48, item 6; docs/site-content.md, Testimonials): the 12 built-in
 * quotes are invented. Adding one real quote and saving the whole list leaves the other twelve
 * samples (marked in the stored list, however a browser sent them); the home page publishes the
 * firm's own quotes only, or the samples marked as samples while it has none; a sample becomes the
 * firm's when it is edited or confirmed, one by one; the Site tab counts what is left and the
 * first-day checklist ticks Testimonials only when none is. Real server, real Postgres.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { DEFAULT_TESTIMONIALS } from "../../server/domains/site/defaults.ts";
import type { Testimonial } from "../../server/domains/site/schemas.ts";
import { createUser, loginClient } from "../helpers/factories.ts";
import { ApiClient } from "../helpers/http.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

let server: TestServer;
let anon: ApiClient;
let admin: ApiClient;

beforeAll(async () => {
  server = await startTestServer();
  anon = new ApiClient(server.url);
  admin = await loginClient(server.url, await createUser(server.db, { is_admin: true }), "admin");
});
afterAll(async () => {
  await server.close();
});
beforeEach(async () => {
  await server.db.deleteFrom("site_content").where("section", "=", "testimonials").execute();
  await server.db.deleteFrom("firm_settings").where("key", "=", "site_testimonials_confirmed_at").execute();
});

/** The quotes as an editor of an earlier release sent them: the words only, no marks. */
const UNMARKED = DEFAULT_TESTIMONIALS.map(({ text, author, business }) => ({ text, author, business }));
const OWN = { text: "They found a deduction three other firms missed.", author: "Ruth Okafor", business: "Florist" };

const published = async (): Promise<Testimonial[]> => JSON.parse((await anon.get("/api/site-content")).body.testimonials.data.value);
const stored = async (): Promise<Testimonial[]> => JSON.parse((await admin.get("/api/admin/site-content")).body.testimonials.data.value);
const samplesView = async () => {
  const view = (await admin.get("/api/admin/site-media")).body;
  return { areSamples: view.testimonialsAreSamples, samples: view.testimonialSamples };
};
const checklistTicks = async () =>
  (await admin.get("/api/admin/setup-checklist")).body.items.find((i: { id: string }) => i.id === "testimonials").done as boolean;

describe("sample testimonials", () => {
  it("on a new install: published marked as samples, counted, and the checklist not ticked", async () => {
    const shown = await published();
    expect(shown).toHaveLength(12);
    expect(shown.every((t) => t.sample === true)).toBe(true);
    expect(await samplesView()).toEqual({ areSamples: true, samples: 12 });
    expect(await checklistTicks()).toBe(false);
  });

  it("stay samples when one real quote is added and the whole list saved, and are not published as the firm's", async () => {
    // The walk: the editor's list (the samples, sent without their marks) plus one real quote, then Save all.
    const res = await admin.put("/api/admin/testimonials", { testimonials: [...UNMARKED, OWN] });
    expect(res.status, res.text).toBe(200);
    const list = await stored();
    expect(list.slice(0, 12)).toEqual(DEFAULT_TESTIMONIALS);
    expect(list[12]).toEqual(OWN);
    // The home page: the firm's own words only.
    expect(await published()).toEqual([OWN]);
    expect(await samplesView()).toEqual({ areSamples: false, samples: 12 });
    expect(await checklistTicks()).toBe(false);

    // The same through the spec's site-content path.
    const put = await admin.put("/api/admin/site-content/testimonials/data", { value: JSON.stringify([OWN, ...UNMARKED]) });
    expect(put.status).toBe(200);
    expect((await stored()).filter((t) => t.sample === true)).toHaveLength(12);
    expect(await published()).toEqual([OWN]);
  });

  it("become the firm's when edited or confirmed, one by one; the checklist ticks when none is left", async () => {
    const edited = { ...UNMARKED[0]!, text: "They untangled two years of books in a month." };
    const confirmed = { ...UNMARKED[1]!, sample: false };
    // A mark sent on the firm's own words does not make them a sample.
    const markedOwn = { ...OWN, sample: true };
    expect((await admin.put("/api/admin/testimonials", { testimonials: [edited, confirmed, ...UNMARKED.slice(2), markedOwn] })).status).toBe(200);
    expect(await published()).toEqual([edited, UNMARKED[1], OWN]);
    expect(await samplesView()).toEqual({ areSamples: false, samples: 10 });

    const one = await admin.post("/api/admin/testimonials/confirm", { index: 2 });
    expect(one.status, one.text).toBe(200);
    expect(one.body).toMatchObject({ testimonialSamples: 9, testimonialsAreSamples: false });
    expect((await stored())[2]).toEqual({ ...UNMARKED[2], sample: false });
    // Not a sample (the firm's own), or past the end of the list.
    expect((await admin.post("/api/admin/testimonials/confirm", { index: 0 })).status).toBe(409);
    expect((await admin.post("/api/admin/testimonials/confirm", { index: 40 })).status).toBe(404);
    expect((await admin.post("/api/admin/testimonials/confirm", {})).status).toBe(422);
    expect(await checklistTicks()).toBe(false);

    // The rest deleted: nothing is a sample any more.
    expect((await admin.put("/api/admin/testimonials", { testimonials: (await stored()).slice(0, 3) })).status).toBe(200);
    expect(await samplesView()).toEqual({ areSamples: false, samples: 0 });
    expect(await checklistTicks()).toBe(true);
    const client = await loginClient(server.url, await createUser(server.db));
    expect((await client.post("/api/admin/testimonials/confirm", { index: 0 })).status).toBe(403);
  });

  it("stay the firm's where it confirmed the samples as a whole before confirming became one by one", async () => {
    await server.db
      .insertInto("firm_settings")
      .values({ key: "site_testimonials_confirmed_at", value: "2026-12-01T10:00:00.000Z", updated_at: new Date() })
      .execute();
    expect((await published()).some((t) => t.sample)).toBe(false);
    expect(await samplesView()).toEqual({ areSamples: false, samples: 0 });
    expect(await checklistTicks()).toBe(true);
  });
});
