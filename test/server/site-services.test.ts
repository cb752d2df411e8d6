/*
 * The firm's services (issue 48, item 7; docs/site-content.md, Services): the home page's cards, the
 * footer's list and the consultation form's choices come from the site content `services.list`. The
 * specification's six are the defaults, its option list the form's choices word for word; the firm
 * adds, edits, reorders and removes its own; the consultation request's service is checked on the
 * server against the list as it stands; the firm's list, mail and Inbox name each request's service
 * as the list does. Real server, real Postgres, real SMTP.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { DEFAULT_SERVICES } from "../../server/domains/site/defaults.ts";
import { consultationChoices, type Service } from "../../server/domains/site/schemas.ts";
import { createUser, loginClient } from "../helpers/factories.ts";
import { ApiClient } from "../helpers/http.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import { startSmtpServer, type TestSmtpServer } from "../helpers/smtp.ts";

const FIRM_EMAIL = "office@firm.example.com";
const NOTARY_URL = "https://notary.example.org/";
let smtp: TestSmtpServer;
let server: TestServer;
let anon: ApiClient;
let admin: ApiClient;

beforeAll(async () => {
  smtp = await startSmtpServer();
  server = await startTestServer({ env: { SMTP_URL: smtp.url, FIRM_EMAIL, NOTARY_URL } });
  anon = new ApiClient(server.url);
  admin = await loginClient(server.url, await createUser(server.db, { is_admin: true }), "admin");
});
afterAll(async () => {
  await server.close();
  await smtp.stop();
});
beforeEach(() => {
  smtp.messages.length = 0;
});

const request = (service: string) => ({ name: "Fox Mulder", email: "fox.mulder@example.com", phone: "(202) 555-0143", service, message: "" });
const publicServices = async (): Promise<Service[]> => JSON.parse((await anon.get("/api/site-content")).body.services.list.value);

/** The firm's own list: one added, one edited, two moved, notary removed, payroll offered in the form. */
const OWN: Service[] = [
  { ...DEFAULT_SERVICES[1]!, title: "Taxes, filed and planned", description: "Returns for families and businesses." },
  {
    id: "estate-planning",
    title: "Estate Planning",
    description: "Wills, trusts and the taxes that come with them.",
    icon: "briefcase",
    link: "/terms",
    link_text: "How we work",
    form_label: "Estate Planning",
  },
  DEFAULT_SERVICES[0]!,
  { ...DEFAULT_SERVICES[4]!, form_label: "Payroll Services" },
  DEFAULT_SERVICES[3]!,
  DEFAULT_SERVICES[5]!,
];

describe("the specification's six as the defaults", () => {
  it("lists the six services with the configured notary site, and offers the specification's option list exactly", async () => {
    const services = await publicServices();
    expect(services.map((s) => s.title)).toEqual([
      "Bookkeeping",
      "Tax Preparation & Planning",
      "Notary Services",
      "Administrative Services",
      "Payroll",
      "Business Consulting",
    ]);
    expect(services.find((s) => s.id === "notary")).toMatchObject({ link: NOTARY_URL, link_text: "Visit the notary site" });
    // The specification's "Option lists": value and label, in its order, Other last.
    expect(consultationChoices(services)).toEqual([
      { value: "bookkeeping", label: "Bookkeeping Services" },
      { value: "tax-prep", label: "Tax Preparation & Planning" },
      { value: "notary", label: "Notary Services" },
      { value: "admin", label: "Administrative Services" },
      { value: "consulting", label: "Business Consulting" },
      { value: "other", label: "Other" },
    ]);
    for (const value of ["bookkeeping", "tax-prep", "notary", "admin", "consulting", "other"]) {
      const res = await anon.post("/api/consultation/request", request(value));
      expect(res.status, `${value}: ${res.text}`).toBe(200);
    }
    // Payroll is a card, not one of the specification's choices.
    const payroll = await anon.post("/api/consultation/request", request("payroll"));
    expect(payroll.status).toBe(422);
    expect(payroll.body).toEqual({ detail: "Please choose a service from the list" });
  });
});

describe("the firm's own list", () => {
  it("adds, edits, reorders and removes services; the site, the form's choices and the server's check follow", async () => {
    const res = await admin.put("/api/admin/site-content/services/list", { value: JSON.stringify(OWN) });
    expect(res.status, res.text).toBe(200);
    expect(await publicServices()).toEqual(OWN);
    expect(consultationChoices(OWN).map((c) => c.label)).toEqual([
      "Tax Preparation & Planning",
      "Estate Planning",
      "Bookkeeping Services",
      "Payroll Services",
      "Administrative Services",
      "Business Consulting",
      "Other",
    ]);

    expect((await anon.post("/api/consultation/request", request("estate-planning"))).status).toBe(200);
    expect((await anon.post("/api/consultation/request", request("payroll"))).status).toBe(200);
    // Removed: no longer a choice, refused with the form's own words.
    const notary = await anon.post("/api/consultation/request", request("notary"));
    expect(notary.status).toBe(422);
    expect(notary.body).toEqual({ detail: "Please choose a service from the list" });

    // The firm reads each request's service as its list names it; one removed since keeps its id.
    await server.db
      .insertInto("consultation_requests")
      .values({ name: "Old", email: "old@example.com", phone: "555-0100", service: "notary", message: "", created_at: new Date() })
      .execute();
    const list = await admin.get("/api/admin/consultations?limit=20");
    expect(list.status).toBe(200);
    const labels = Object.fromEntries(list.body.map((r: { service: string; service_label: string | null }) => [r.service, r.service_label]));
    expect(labels).toMatchObject({ "estate-planning": "Estate Planning", payroll: "Payroll Services", notary: null, other: "Other" });
    const inbox = await server.db.selectFrom("inbox_items").select("summary").where("kind", "=", "consultation").execute();
    expect(inbox.map((i) => i.summary)).toContainEqual({ name: "Fox Mulder", service: "estate-planning", service_label: "Estate Planning" });
  });

  it("mails the firm the service in the words of its list", async () => {
    expect((await anon.post("/api/consultation/request", { ...request("estate-planning"), name: "Dana Scully" })).status).toBe(200);
    await expect.poll(() => smtp.messages.some((m) => m.subject.includes("Dana Scully")), { timeout: 10_000 }).toBe(true);
    const firm = smtp.messages.find((m) => m.subject.includes("Dana Scully"))!;
    expect(firm.to).toEqual([FIRM_EMAIL]);
    expect(firm.subject).toBe("Consultation request from Dana Scully (Estate Planning)");
    expect(firm.text).toContain("Service: Estate Planning");
  });

  it("refuses a list that is not one, with the service and the reason, and stores nothing", async () => {
    const before = await admin.get("/api/admin/site-content");
    const cases: Array<[unknown, string]> = [
      ["not json", "Services must be a JSON list of services"],
      [[], "Keep at least one service (Reset to default brings back the six)"],
      [[OWN[0], { ...OWN[1], title: " " }], "Service 2: Each service needs a title"],
      [[OWN[0], { ...OWN[1], id: "other" }], 'Service 2: "other" is the consultation form\'s own last choice'],
      [[OWN[0], { ...OWN[1], id: OWN[0]!.id }], `Service 2: the id "${OWN[0]!.id}" is used twice`],
      [
        [OWN[0], { ...OWN[1], link: "javascript:alert(1)" }],
        "Service 2: A service's link must be a web address (https://...) or a path on this site, like /terms",
      ],
      [
        [OWN[0], { ...OWN[1], link: "//evil.example/x" }],
        "Service 2: A service's link must be a web address (https://...) or a path on this site, like /terms",
      ],
      [[OWN[0], { ...OWN[1], form_label: OWN[0]!.form_label }], 'Service 2: "Tax Preparation & Planning" is already a choice of the form'],
      [
        [OWN[0], { ...OWN[1], icon: "skull" }],
        "Service 2: A service's icon is one of calculator, file-text, stamp, clipboard-list, wallet, trending-up, briefcase",
      ],
    ];
    for (const [list, detail] of cases) {
      const value = typeof list === "string" ? list : JSON.stringify(list);
      const res = await admin.put("/api/admin/site-content/services/list", { value });
      expect(res.status, value).toBe(422);
      expect(res.body).toEqual({ detail });
    }
    expect((await admin.get("/api/admin/site-content")).body).toEqual(before.body);
  });

  it("goes back to the specification's six with Reset to default, and only the firm may change it", async () => {
    const client = await loginClient(server.url, await createUser(server.db));
    expect((await client.put("/api/admin/site-content/services/list", { value: JSON.stringify(DEFAULT_SERVICES) })).status).toBe(403);
    expect((await admin.delete("/api/admin/site-content/services/list")).status).toBe(200);
    expect(await publicServices()).toEqual(DEFAULT_SERVICES.map((s) => (s.id === "notary" ? { ...s, link: NOTARY_URL } : s)));
    expect((await anon.post("/api/consultation/request", request("estate-planning"))).status).toBe(422);
  });
});
