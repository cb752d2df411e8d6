import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_TESTIMONIALS } from "../../server/routers/site/defaults.ts";
import { SITE_CONTENT_KEYS } from "../../server/routers/site/schemas.ts";
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
    for (const t of testimonials) expect(Object.keys(t).sort()).toEqual(["author", "business", "text"]);
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
      { text: "Quotes \"and\" <tags> survive.", author: "Jake Peralta", business: "" },
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
  });

  it("serves the same content through tRPC", async () => {
    const res = await anon.get("/trpc/site.content");
    expect(res.status).toBe(200);
    expect(res.body.result.data.json.contact.phone).toEqual({ value: "(555) 010-7777" });
  });
});
