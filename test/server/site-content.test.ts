import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_SERVICES, DEFAULT_TESTIMONIALS, defaultSiteContent } from "../../server/domains/site/defaults.ts";
import { SITE_CONTENT_KEYS } from "../../server/domains/site/schemas.ts";
import { createUser, loginClient } from "../helpers/factories.ts";
import { ApiClient } from "../helpers/http.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

let server: TestServer;
let admin: ApiClient;
let anon: ApiClient;

beforeAll(async () => {
  server = await startTestServer({ env: { FIRM_EMAIL: "office@firm.example.com" } });
  admin = await loginClient(server.url, await createUser(server.db, { is_admin: true }), "admin");
  anon = new ApiClient(server.url);
});
afterAll(() => server.close());

const defaults = defaultSiteContent({ firmEmail: "office@firm.example.com" });
const rows = () => server.db.selectFrom("site_content").select(["section", "key", "value"]).orderBy("section").orderBy("key").execute();

describe("site content", () => {
  it("is empty for the admin until initialized, while the public read falls back to the defaults", async () => {
    const stored = await admin.get("/api/admin/site-content");
    expect(stored.status).toBe(200);
    expect(stored.body).toEqual({});

    const pub = await anon.get("/api/site-content");
    expect(pub.status).toBe(200);
    for (const [section, keys] of Object.entries(SITE_CONTENT_KEYS)) {
      expect(Object.keys(pub.body[section]).sort()).toEqual([...keys].sort());
      for (const key of keys) expect(typeof pub.body[section][key].value).toBe("string");
    }
    expect(pub.body.company.name.value).not.toBe("");
    expect(pub.body.contact.email.value).toBe("office@firm.example.com");
    expect(pub.body.hero.image.value).toBe("/images/hero.svg");
    expect(pub.body.company.logo.value).toBe("/images/logo.svg");
    const testimonials = JSON.parse(pub.body.testimonials.data.value);
    expect(testimonials).toHaveLength(12);
    // The built-in quotes go out marked as the samples they are (issue 48).
    for (const t of testimonials)
      expect(t).toEqual({ text: expect.any(String), author: expect.any(String), business: expect.any(String), sample: true });
    expect(JSON.parse(pub.body.services.list.value)).toEqual(DEFAULT_SERVICES);
  });

  it("initializes every key with the defaults, twice without duplicates, keeping edits", async () => {
    const first = await admin.post("/api/admin/init-site-content", {});
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ success: true });
    const afterFirst = await rows();
    const expectedCount = Object.values(SITE_CONTENT_KEYS).reduce((n, keys) => n + keys.length, 0);
    expect(afterFirst).toHaveLength(expectedCount);
    expect(JSON.parse(afterFirst.find((r) => r.section === "testimonials")!.value)).toEqual(DEFAULT_TESTIMONIALS);

    expect((await admin.put("/api/admin/site-content/hero/title", { value: "Numbers you can trust" })).status).toBe(200);
    expect((await admin.post("/api/admin/init-site-content", {})).status).toBe(200);
    const afterSecond = await rows();
    expect(afterSecond).toHaveLength(expectedCount);
    expect(afterSecond.find((r) => r.section === "hero" && r.key === "title")!.value).toBe("Numbers you can trust");

    const content = (await admin.get("/api/admin/site-content")).body;
    expect(content.hero.title).toEqual({ value: "Numbers you can trust" });
    expect(content.testimonials.data.value).toBe(JSON.stringify(DEFAULT_TESTIMONIALS));
  });

  it("updates one value and shows it on the public site", async () => {
    const res = await admin.put("/api/admin/site-content/contact/phone", { value: "(555) 010-7777" });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true });
    expect((await anon.get("/api/site-content")).body.contact.phone).toEqual({ value: "(555) 010-7777" });
    // Stored as text, exactly: the site renders it as text, never as HTML.
    await admin.put("/api/admin/site-content/about/title", { value: "<script>alert(1)</script>" });
    expect((await anon.get("/api/site-content")).body.about.title.value).toBe("<script>alert(1)</script>");
  });

  it("refuses an unknown section or key, and a value that is not text", async () => {
    const before = await rows();
    const section = await admin.put("/api/admin/site-content/pricing/title", { value: "x" });
    expect(section.status).toBe(422);
    expect(section.body).toEqual({ detail: "Unknown site content section" });
    const key = await admin.put("/api/admin/site-content/hero/color", { value: "x" });
    expect(key.status).toBe(422);
    expect(key.body).toEqual({ detail: "Unknown site content key" });
    const missing = await admin.put("/api/admin/site-content/hero/title", {});
    expect(missing.status).toBe(422);
    expect(missing.body).toEqual({ detail: "value must be text" });
    const badList = await admin.put("/api/admin/site-content/testimonials/data", { value: "not json" });
    expect(badList.status).toBe(422);
    expect(await rows()).toEqual(before);
  });

  it("round-trips the testimonials list", async () => {
    const testimonials = [
      { text: "Exact books, always on time.", author: "Rosa Diaz", business: "Bakery" },
      { text: 'Quotes "and" <tags> survive.', author: "Jake Peralta", business: "" },
    ];
    const res = await admin.put("/api/admin/testimonials", { testimonials });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true });
    const stored = (await admin.get("/api/admin/site-content")).body.testimonials.data.value;
    expect(JSON.parse(stored)).toEqual(testimonials);
    expect(JSON.parse((await anon.get("/api/site-content")).body.testimonials.data.value)).toEqual(testimonials);

    const invalid = await admin.put("/api/admin/testimonials", { testimonials: [{ text: "", author: "A", business: "B" }] });
    expect(invalid.status).toBe(422);
    expect(invalid.body).toEqual({ detail: "Testimonial text is required" });

    expect((await admin.put("/api/admin/testimonials", { testimonials: [] })).status).toBe(200);
    expect(JSON.parse((await admin.get("/api/admin/site-content")).body.testimonials.data.value)).toEqual([]);
    // An empty list never reaches the page: the carousel shows the built-in testimonials.
    expect(JSON.parse((await anon.get("/api/site-content")).body.testimonials.data.value)).toEqual(DEFAULT_TESTIMONIALS);
  });

  it("serves the same content through tRPC", async () => {
    const res = await anon.get("/trpc/site.content");
    expect(res.status).toBe(200);
    expect(res.body.result.data.json.contact.phone).toEqual({ value: "(555) 010-7777" });
  });

  it("refuses with 422 a contact email, phone, image or video path that is not one, storing nothing", async () => {
    const before = await rows();
    const refusals: Array<[string, string, string]> = [
      ["contact/email", "call us", "Contact email must be an email address, like office@example.com"],
      ["contact/email", "office@", "Contact email must be an email address, like office@example.com"],
      ["contact/phone", "call us any time", "Contact phone must be a phone number, like (555) 010-4200"],
      ["contact/phone", "12-34", "Contact phone must be a phone number, like (555) 010-4200"],
      ["hero/image", "https://tracker.example/pixel.png", "Hero image must be a path on this site, like /images/hero.svg"],
      ["hero/image", "//tracker.example/pixel.png", "Hero image must be a path on this site, like /images/hero.svg"],
      ["about/image", "/\\tracker.example/pixel.png", "About image must be a path on this site, like /images/about.svg"],
      ["about/image", "/images/../../etc/passwd.png", "About image must be a path on this site, like /images/about.svg"],
      ["company/logo", "javascript:alert(1)", "Logo must be a path on this site, like /images/logo.svg"],
      ["company/logo", "/images/logo.html", "Logo must be a path on this site, like /images/logo.svg"],
      ["company/logo", "data:image/svg+xml,<svg onload=alert(1)>", "Logo must be a path on this site, like /images/logo.svg"],
      ["welcome/video", "https://videos.example/welcome.mp4", "Welcome video must be a path on this site, like /videos/welcome.mp4"],
    ];
    for (const [path, value, detail] of refusals) {
      const res = await admin.put(`/api/admin/site-content/${path}`, { value });
      expect(res.status, `${path} = ${value}`).toBe(422);
      expect(res.body).toEqual({ detail });
    }
    expect(await rows()).toEqual(before);

    const accepted: Array<[string, string]> = [
      ["contact/email", "  frontdesk@firm.example.com "],
      ["contact/phone", "+1 (555) 010-4200 ext. 12"],
      ["hero/image", "/images/hero.svg"],
      ["company/logo", "/images/brand/logo-2026.PNG"],
      ["welcome/video", "/videos/welcome.webm"],
    ];
    for (const [path, value] of accepted) {
      const res = await admin.put(`/api/admin/site-content/${path}`, { value });
      expect(res.status, `${path} = ${value}: ${res.text}`).toBe(200);
    }
    const content = (await anon.get("/api/site-content")).body;
    expect(content.contact.email.value).toBe("frontdesk@firm.example.com");
    expect(content.contact.phone.value).toBe("+1 (555) 010-4200 ext. 12");
    expect(content.company.logo.value).toBe("/images/brand/logo-2026.PNG");
  });

  it("never shows an empty value: clearing a key, or an empty value stored earlier, shows its default", async () => {
    expect((await admin.put("/api/admin/site-content/hero/subtitle", { value: "Books closed every month" })).status).toBe(200);
    expect((await anon.get("/api/site-content")).body.hero.subtitle.value).toBe("Books closed every month");

    for (const value of ["", "   \n "]) {
      const res = await admin.put("/api/admin/site-content/hero/subtitle", { value });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ success: true });
      expect((await rows()).some((r) => r.section === "hero" && r.key === "subtitle")).toBe(false);
      expect((await anon.get("/api/site-content")).body.hero.subtitle.value).toBe(defaults.hero.subtitle);
    }

    // A row stored empty before this rule: the page shows the default all the same.
    await server.db
      .insertInto("site_content")
      .values({ section: "about", key: "title", value: " ", updated_at: new Date() })
      .onConflict((oc) => oc.columns(["section", "key"]).doUpdateSet({ value: " " }))
      .execute();
    const pub = (await anon.get("/api/site-content")).body;
    for (const [section, keys] of Object.entries(pub as Record<string, Record<string, { value: string }>>)) {
      for (const [key, { value }] of Object.entries(keys)) expect(value.trim(), `${section}.${key}`).not.toBe("");
    }
    expect(pub.about.title.value).toBe(defaults.about.title);
  });

  it("gives the editor every key as the site shows it, marking the defaults", async () => {
    const res = await admin.get("/trpc/admin.siteContent.editor");
    expect(res.status).toBe(200);
    const view = res.body.result.data.json;
    const pub = (await anon.get("/api/site-content")).body;
    for (const [section, keys] of Object.entries(SITE_CONTENT_KEYS)) {
      expect(Object.keys(view[section]).sort()).toEqual([...keys].sort());
      for (const key of keys) {
        // The editor lists the samples too; the site leaves them out once the firm has quotes of its own.
        if (section !== "testimonials") expect(view[section][key].value, `${section}.${key}`).toBe(pub[section][key].value);
        expect(view[section][key].defaultValue).toBe(defaults[section as keyof typeof defaults][key as never]);
      }
    }
    expect(view.hero.title).toEqual({ value: "Numbers you can trust", isDefault: false, defaultValue: defaults.hero.title });
    expect(view.hero.subtitle).toEqual({ value: defaults.hero.subtitle, isDefault: true, defaultValue: defaults.hero.subtitle });
    expect(view.about.title.isDefault).toBe(true);

    const client = await loginClient(server.url, await createUser(server.db));
    expect((await client.get("/trpc/admin.siteContent.editor")).status).toBe(403);
  });

  it("resets one key to its default with DELETE, and refuses unknown keys", async () => {
    expect((await rows()).some((r) => r.section === "hero" && r.key === "title")).toBe(true);
    const res = await admin.delete("/api/admin/site-content/hero/title");
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true });
    expect((await rows()).some((r) => r.section === "hero" && r.key === "title")).toBe(false);
    expect((await anon.get("/api/site-content")).body.hero.title.value).toBe(defaults.hero.title);
    // Twice is the same as once.
    expect((await admin.delete("/api/admin/site-content/hero/title")).status).toBe(200);

    const unknown = await admin.delete("/api/admin/site-content/hero/color");
    expect(unknown.status).toBe(422);
    expect(unknown.body).toEqual({ detail: "Unknown site content key" });
    expect((await anon.delete("/api/admin/site-content/contact/phone")).status).toBe(401);
    expect((await rows()).some((r) => r.section === "contact" && r.key === "phone")).toBe(true);
  });

  it("never publishes the sample testimonials an earlier editor started from", async () => {
    const before = await rows();
    const sample = { text: "Working with this team transformed how I run my business.", author: "Sample Client", business: "Small business owner" };
    const detail = 'Sample testimonials are not published: replace "Sample Client" with the client\'s name, or delete them';
    const all = await admin.put("/api/admin/testimonials", { testimonials: [DEFAULT_TESTIMONIALS[0], sample] });
    expect(all.status).toBe(422);
    expect(all.body).toEqual({ detail });
    const one = await admin.put("/api/admin/site-content/testimonials/data", { value: JSON.stringify([sample]) });
    expect(one.status).toBe(422);
    expect(one.body).toEqual({ detail });
    expect(await rows()).toEqual(before);
  });
});
