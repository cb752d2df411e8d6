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

/** The firm's copy among the two mails a request sends (the visitor's confirmation is the other). */
async function firmMail(timeoutMs?: number) {
  const mails = await smtp.waitForMessages(2, timeoutMs);
  const mail = mails.find((m) => m.to.includes(FIRM_EMAIL) || m.to.includes("frontdesk@firm.example.com"));
  if (!mail) throw new Error(`no mail to the firm among ${mails.map((m) => m.to.join()).join("; ")}`);
  return mail;
}

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

    const mail = await firmMail();
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
    const mail = await firmMail();
    expect(mail!.text).toContain("Service: Not specified");
  });

  it("sends to the contact email an admin set in the site content", async () => {
    await server.db.insertInto("site_content").values({ section: "contact", key: "email", value: "frontdesk@firm.example.com" }).execute();
    try {
      expect((await anon.post("/api/consultation/request", request())).status).toBe(200);
      const mail = await firmMail();
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
    const mail = await firmMail(15_000);
    expect(mail!.subject).toContain("Dana Scully");
    await expect.poll(async () => (await storedRequests()).at(-1)!.email_sent_at, { timeout: 5000 }).not.toBeNull();
  });

  it("refuses a preferred date that has passed everywhere with 422, and stores and sends nothing", async () => {
    const before = (await storedRequests()).length;
    const yesterdayEverywhere = new Date(server.clock.now().getTime() - 2 * 24 * 3600 * 1000).toISOString().slice(0, 10);
    const res = await anon.post("/api/consultation/request", request({ preferredDate: yesterdayEverywhere }));
    expect(res.status).toBe(422);
    expect(res.body).toEqual({ detail: "Please choose a date from today on" });
    expect(await storedRequests()).toHaveLength(before);
    // Today on the UTC calendar is still today somewhere: accepted.
    const today = server.clock.now().toISOString().slice(0, 10);
    expect((await anon.post("/api/consultation/request", request({ preferredDate: today }))).status).toBe(200);
    await firmMail();
  });

  it("mails the visitor a confirmation that holds nothing they typed", async () => {
    const res = await anon.post(
      "/api/consultation/request",
      request({ name: "URGENT: your IRS refund is on hold", email: "visitor@example.com", message: "Confirm at http://evil.example" }),
    );
    expect(res.status).toBe(200);
    const mails = await smtp.waitForMessages(2);
    const confirmation = mails.find((m) => m.to.includes("visitor@example.com"))!;
    expect(confirmation.subject).toBe("Your consultation request to Harborline Accounting & Business Services");
    expect(confirmation.text).toContain("We received your consultation request and will reply within 24 hours.");
    for (const part of [confirmation.subject, confirmation.text, confirmation.html]) {
      expect(part).not.toContain("IRS");
      expect(part).not.toContain("evil.example");
      expect(part).not.toContain("(202) 555-0143");
    }
  });
});
