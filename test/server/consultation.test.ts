import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { ApiClient } from "../helpers/http.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import { startSmtpServer, type TestSmtpServer } from "../helpers/smtp.ts";

const FIRM_EMAIL = "office@firm.example.com";
let smtp: TestSmtpServer;
let server: TestServer;
let anon: ApiClient;

beforeAll(async () => {
  smtp = await startSmtpServer();
  server = await startTestServer({ env: { SMTP_URL: smtp.url, FIRM_EMAIL } });
  anon = new ApiClient(server.url);
});
afterAll(async () => {
  await server.close();
  await smtp.stop();
});
beforeEach(() => {
  smtp.messages.length = 0;
});

const request = (over: Record<string, unknown> = {}) => ({
  name: "Fox Mulder",
  email: "fox.mulder@example.com",
  phone: "(202) 555-0143",
  service: "tax-prep",
  preferredDate: "2027-03-15",
  preferredTime: "afternoon",
  message: "I need help with <b>quarterly</b> estimates & a late 1099.",
  ...over,
});

async function storedRequests() {
  return server.db.selectFrom("consultation_requests").selectAll().orderBy("created_at").execute();
}

describe("POST /api/consultation/request", () => {
  it.each(["name", "email", "phone"])("refuses a missing %s with the spec's message", async (field) => {
    const before = (await storedRequests()).length;
    for (const value of [undefined, "", "   "]) {
      const res = await anon.post("/api/consultation/request", request({ [field]: value }));
      expect(res.status).toBe(422);
      expect(res.body).toEqual({ detail: "Please fill in all required fields" });
    }
    expect(await storedRequests()).toHaveLength(before);
  });

  it("refuses values outside the spec's lists with a clear detail", async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ email: "fox" }, "Please enter a valid email address"],
      [{ phone: "call me" }, "Please enter a valid phone number"],
      [{ service: "astrology" }, "Please choose a service from the list"],
      [{ preferredTime: "midnight" }, "Preferred time must be morning, afternoon or evening"],
      [{ preferredDate: "2027-02-30" }, "Please choose a valid date"],
      [{ message: "x".repeat(5001) }, "Message must be at most 5000 characters"],
    ];
    for (const [over, detail] of cases) {
      const res = await anon.post("/api/consultation/request", request(over));
      expect(res.status, JSON.stringify(over)).toBe(422);
      expect(res.body).toEqual({ detail });
    }
  });

  it("stores the request and emails it to the firm", async () => {
    const res = await anon.post("/api/consultation/request", request());
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true });

    const rows = await storedRequests();
    const row = rows.at(-1)!;
    expect(row).toMatchObject({
      name: "Fox Mulder",
      email: "fox.mulder@example.com",
      phone: "(202) 555-0143",
      service: "tax-prep",
      preferred_time: "afternoon",
      message: "I need help with <b>quarterly</b> estimates & a late 1099.",
      handled_at: null,
    });

    const [mail] = await smtp.waitForMessages(1);
    expect(mail!.to).toEqual([FIRM_EMAIL]);
    expect(mail!.headers["reply-to"]).toContain("fox.mulder@example.com");
    expect(mail!.subject).toBe("Consultation request from Fox Mulder (Tax Preparation & Planning)");
    expect(mail!.text).toContain("Phone: (202) 555-0143");
    expect(mail!.text).toContain("Preferred date: 2027-03-15");
    expect(mail!.text).toContain("Preferred time: Afternoon (12 PM-5 PM)");
    expect(mail!.text).toContain("I need help with <b>quarterly</b> estimates & a late 1099.");
    // Visitor text is data, never markup, in the HTML part.
    expect(mail!.html).toContain("&#60;b&#62;quarterly&#60;/b&#62; estimates &#38; a late 1099.");
    expect(mail!.html).not.toContain("<b>quarterly");

    await expect.poll(async () => (await storedRequests()).at(-1)!.email_sent_at).not.toBeNull();
  });

  it("accepts the optional fields left empty", async () => {
    const res = await anon.post("/api/consultation/request", request({ service: "", preferredDate: "", preferredTime: "", message: undefined }));
    expect(res.status).toBe(200);
    expect((await storedRequests()).at(-1)).toMatchObject({ service: null, preferred_date: null, preferred_time: null, message: "" });
    const [mail] = await smtp.waitForMessages(1);
    expect(mail!.text).toContain("Service: Not specified");
  });

  it("sends to the contact email an admin set in the site content", async () => {
    await server.db.insertInto("site_content").values({ section: "contact", key: "email", value: "frontdesk@firm.example.com" }).execute();
    try {
      expect((await anon.post("/api/consultation/request", request())).status).toBe(200);
      const [mail] = await smtp.waitForMessages(1);
      expect(mail!.to).toEqual(["frontdesk@firm.example.com"]);
    } finally {
      await server.db.deleteFrom("site_content").execute();
    }
  });

  it("keeps the request and answers success while the mail server is down, then retries", async () => {
    const port = smtp.port;
    await smtp.stop();
    try {
      const res = await anon.post("/api/consultation/request", request({ name: "Dana Scully", email: "dana@example.com" }));
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ success: true });
      const row = (await storedRequests()).at(-1)!;
      expect(row).toMatchObject({ name: "Dana Scully", email_sent_at: null });
      await expect.poll(() => server.logs.some((l) => l.includes("mail send failed, retrying") && l.includes(row.id))).toBe(true);
    } finally {
      // The mail server comes back on the same port before the retry.
      smtp = await startSmtpServer({ port });
    }
    const [mail] = await smtp.waitForMessages(1, 15_000);
    expect(mail!.subject).toContain("Dana Scully");
    await expect.poll(async () => (await storedRequests()).at(-1)!.email_sent_at, { timeout: 5000 }).not.toBeNull();
  });
});
