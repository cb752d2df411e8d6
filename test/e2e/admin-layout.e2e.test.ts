/*
 * The admin portal's lists and tables with 200-character names, in Chromium against the real
 * server: nothing may push the page wider than a phone or a tablet, a cut name stays readable
 * (its title, its text for screen readers, unfolded on focus), and the tables turn into cards
 * on phones. Also the appointments table's status select and the New appointment dialog, and
 * the firm's day (issue 34): the Inbox, a reply in place, Back to the Inbox's place, New message,
 * an invitation from a consultation request, the Site tab's two areas and the firm's name.
 * Needs the built client (global-setup-client.ts builds it).
 */
import type { Browser, Locator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  checkA11y,
  formatViolations,
  horizontalOverflow,
  releaseBrowser,
  screenshotOnFailure,
  screenshotWholePage,
  sharedBrowser,
  takeScreenshot,
  type TestPage,
  type Viewport,
} from "../helpers/browser.ts";
import { signedInPage } from "../helpers/admin-sign-in.ts";
import { mkdir } from "node:fs/promises";
import { createUser, loginClient, type UserFixture } from "../helpers/factories.ts";
import { ApiClient } from "../helpers/http.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import { toast } from "../helpers/staff-browser.ts";
import { DEFAULT_FIRM_NAME } from "../../server/domains/site/defaults.ts";

/** 200 characters and no space to break at: the worst a name can do to a layout. */
const long = (stem: string) => stem.repeat(Math.ceil(200 / stem.length)).slice(0, 200);
const LONG_NAME = long("Bartholomew-Featherstonehaugh-");
const LONG_EMAIL = `${long("accounts.payable.department.")}@example.com`;
const LONG_FILE = `${long("Consolidated_Quarterly_Statement_")}.pdf`;
const LONG_TITLE = long("Year-end-reconciliation-review-");
const LONG_MESSAGE = long("PleaseCallMeBackAboutMyLateFilings");

const WIDTHS: Viewport[] = [
  { width: 390, height: 844 },
  { width: 768, height: 1024 },
  { width: 1280, height: 800 },
];
const TABS = ["overview", "users", "documents", "appointments", "consultations"] as const;

let server: TestServer;
let browser: Browser;
let adminUser: UserFixture;
let client: UserFixture;

async function signedInAdmin(viewport: Viewport): Promise<TestPage> {
  return signedInPage(browser, server.url, adminUser, "admin", { viewport });
}

async function openTab(page: Page, tab: (typeof TABS)[number]) {
  await page.goto(tab === "overview" ? "/admin/dashboard" : `/admin/dashboard?tab=${tab}`);
  await page.getByRole("tabpanel").first().waitFor();
  await page.getByRole("status").first().waitFor({ state: "detached" });
}

/** The visible element carrying `text` whole, as its title: the name cut short on screen. */
function truncated(page: Page, text: string): Locator {
  return page.locator(`[title="${text}"]`).filter({ visible: true }).first();
}

beforeAll(async () => {
  server = await startTestServer();
  adminUser = await createUser(server.db, { is_admin: true, name: "Office Admin" });
  client = await createUser(server.db, { name: LONG_NAME, email: LONG_EMAIL });
  const api = await loginClient(server.url, client);
  const form = new FormData();
  form.append("file", new Blob(["%PDF-1.4\n"], { type: "application/pdf" }), LONG_FILE);
  const upload = await api.request("POST", "/api/documents/upload", { body: form });
  expect(upload.status, upload.text).toBeLessThan(300);
  // Straight into the tables: the forms cap these names at 100 characters, older rows may not be.
  const now = new Date();
  await server.db
    .insertInto("appointments")
    .values({
      account_id: client.id,
      title: LONG_TITLE,
      description: LONG_MESSAGE,
      appointment_date: new Date("2031-05-06T14:30:00Z"),
      status: "requested",
      created_at: now,
      updated_at: now,
    })
    .execute();
  await server.db
    .insertInto("consultation_requests")
    .values({
      name: LONG_NAME,
      email: LONG_EMAIL,
      phone: "555-0142",
      service: "tax-prep",
      preferred_date: null,
      preferred_time: null,
      message: LONG_MESSAGE,
      created_at: now,
      handled_at: null,
      email_sent_at: now,
    })
    .execute();
  browser = await sharedBrowser();
}, 300_000);

afterAll(async () => {
  await releaseBrowser(browser);
  await server?.close();
});

describe("admin lists and tables with 200-character names", () => {
  for (const viewport of WIDTHS) {
    it(`fit ${viewport.width} px on every tab, the names cut with the whole name kept`, async () => {
      const t = await signedInAdmin(viewport);
      await screenshotOnFailure(t.page, `admin-long-names-${viewport.width}`, async () => {
        for (const tab of TABS) {
          await openTab(t.page, tab);
          await takeScreenshot(t.page, `admin-long-names-${tab}`);
          const name = tab === "documents" || tab === "overview" ? LONG_FILE : tab === "appointments" ? LONG_TITLE : LONG_NAME;
          const cut = truncated(t.page, name);
          await cut.waitFor();
          // Cut on screen, whole for screen readers and on hover.
          expect(await cut.evaluate((el) => el.scrollWidth > el.clientWidth)).toBe(true);
          expect(await cut.textContent()).toBe(name);
          expect(await horizontalOverflow(t.page), `${tab} at ${viewport.width} px`).toBe(0);
          const violations = await checkA11y(t.page, { exclude: ["[data-sonner-toaster]"] });
          expect(violations, formatViolations(violations)).toEqual([]);
        }
      });
      t.expectNoConsoleErrors();
      await t.close();
    });
  }

  it("unfolds a cut name when the keyboard reaches it", async () => {
    const t = await signedInAdmin(WIDTHS[0]!);
    await openTab(t.page, "overview");
    const cut = truncated(t.page, LONG_FILE);
    await cut.focus();
    await expect.poll(() => cut.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
    const box = await cut.boundingBox();
    expect(box!.x + box!.width).toBeLessThanOrEqual(390);
    await t.close();
  });

  it("shows phone-sized tables as cards, one per row, with every column labelled", async () => {
    const t = await signedInAdmin(WIDTHS[0]!);
    await openTab(t.page, "users");
    await expect(t.page.getByRole("table").count()).resolves.toBe(0);
    const cards = t.page.getByRole("list", { name: "Users" }).locator(":scope > li");
    await expect(cards.count()).resolves.toBe(2);
    const card = cards.filter({ hasText: LONG_EMAIL });
    await card.getByText("Joined").waitFor();
    await card.getByText("Storage").waitFor();
    await card.getByRole("button", { name: `Delete ${LONG_NAME}` }).waitFor();
    await t.close();
  });

  it("says when a table scrolls sideways on a tablet, and lets the keyboard scroll it", async () => {
    const t = await signedInAdmin(WIDTHS[1]!);
    await openTab(t.page, "appointments");
    const frame = t.page.getByRole("region", { name: "Appointments, scrolls sideways" });
    await frame.waitFor();
    await t.page.getByText("Scroll sideways to see every column.").waitFor();
    await frame.focus();
    await t.page.keyboard.press("ArrowRight");
    await t.page.keyboard.press("ArrowRight");
    await expect.poll(() => frame.evaluate((el) => el.scrollLeft)).toBeGreaterThan(0);
    await t.close();
  });

  it("paints delete buttons red", async () => {
    const t = await signedInAdmin(WIDTHS[2]!);
    for (const [tab, name] of [
      ["users", `Delete ${LONG_NAME}`],
      ["documents", `Delete ${LONG_FILE}`],
    ] as const) {
      await openTab(t.page, tab);
      const color = await t.page.getByRole("button", { name }).evaluate((el) => getComputedStyle(el).color);
      const destructive = await t.page.evaluate(() => {
        const probe = document.createElement("span");
        probe.className = "text-destructive";
        document.body.append(probe);
        const value = getComputedStyle(probe).color;
        probe.remove();
        return value;
      });
      expect(color, tab).toBe(destructive);
    }
    await t.close();
  });
});

describe("admin appointments", () => {
  it("shows each status select's whole text", async () => {
    for (const viewport of [WIDTHS[0]!, WIDTHS[2]!]) {
      const t = await signedInAdmin(viewport);
      await openTab(t.page, "appointments");
      const select = t.page.getByLabel(`Status of ${LONG_TITLE} for ${LONG_NAME}`);
      for (const status of ["requested", "scheduled", "completed", "cancelled"]) {
        await select.selectOption(status);
        await expect.poll(async () => (await server.db.selectFrom("appointments").select("status").executeTakeFirstOrThrow()).status).toBe(status);
        // The text of the chosen option fits between the select's padding and its chevron.
        const fits = await select.evaluate((el: HTMLSelectElement) => {
          const style = getComputedStyle(el);
          const canvas = document.createElement("canvas").getContext("2d")!;
          canvas.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
          const text = canvas.measureText(el.selectedOptions[0]!.text).width;
          const room = el.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
          const lineRoom = el.clientHeight - parseFloat(style.paddingTop) - parseFloat(style.paddingBottom);
          return text <= room && parseFloat(style.lineHeight || style.fontSize) <= lineRoom + 0.5;
        });
        expect(fits, `${status} at ${viewport.width} px`).toBe(true);
      }
      await takeScreenshot(t.page, "admin-appointments-status");
      t.expectNoConsoleErrors();
      await t.close();
    }
  });

  it("clears each of the New appointment dialog's errors once its field is fixed", async () => {
    const t = await signedInAdmin(WIDTHS[2]!);
    await openTab(t.page, "appointments");
    await t.page.getByRole("button", { name: "New appointment" }).click();
    const dialog = t.page.getByRole("dialog", { name: "New appointment" });
    await dialog.getByRole("button", { name: "Create appointment" }).click();
    await dialog.getByText("Please choose a client").waitFor();
    await dialog.getByText("Title is required").waitFor();
    await dialog.getByText("Please choose a valid date and time").waitFor();
    await expect(dialog.getByLabel("Title").getAttribute("aria-invalid")).resolves.toBe("true");

    await dialog.getByLabel("Title").fill("Payroll setup");
    await dialog.getByText("Title is required").waitFor({ state: "detached" });
    expect(await dialog.getByLabel("Title").getAttribute("aria-invalid")).toBeNull();
    // The others stay until their own field is fixed.
    await dialog.getByText("Please choose a client").waitFor();
    await dialog.getByText("Please choose a valid date and time").waitFor();

    await dialog.getByLabel("Date and time").fill("2031-05-06T09:00");
    await dialog.getByText("Please choose a valid date and time").waitFor({ state: "detached" });
    await dialog.getByLabel("Search clients by name, username or email").fill("accounts.payable");
    await dialog.getByRole("radio", { name: new RegExp(LONG_NAME.slice(0, 20)) }).check();
    await dialog.getByText("Please choose a client").waitFor({ state: "detached" });
    const violations = await checkA11y(t.page, { include: ['[role="dialog"]'] });
    expect(violations, formatViolations(violations)).toEqual([]);
    expect(await horizontalOverflow(t.page)).toBe(0);
    t.expectNoConsoleErrors();
    await t.close();
  });
});

const INBOX_SHOTS = "/tmp/shots-inbox";

describe("the firm's day (issue 34)", () => {
  for (const viewport of [WIDTHS[0]!, WIDTHS[2]!]) {
    it(`at ${viewport.width} px: the Inbox names people, collapses uploads, replies in place and keeps its place; New message; Invite as client; the Site tab's two areas`, async () => {
      await mkdir(INBOX_SHOTS, { recursive: true });
      const shot = (page: Page, name: string) => screenshotWholePage(page, `${INBOX_SHOTS}/${name}-${viewport.width}.png`);
      // Each width has people of its own, as each run changes what it finds.
      const maria = await createUser(server.db, { name: `Maria Garcia ${viewport.width}` });
      // The factory names an account by its login; a real one is named for its people.
      await server.db
        .updateTable("accounts")
        .set({ name: `Garcia Household ${viewport.width}` })
        .where("id", "=", maria.id)
        .execute();
      const mariaApi = await loginClient(server.url, maria);
      for (let i = 1; i <= 10; i++) {
        const form = new FormData();
        form.append("file", new Blob([`page ${i}`], { type: "text/plain" }), `receipt-${i}.txt`);
        expect((await mariaApi.request("POST", "/api/documents/upload", { body: form })).status).toBe(201);
      }
      expect((await mariaApi.post("/api/messages", { text: "Did my W-2 arrive?" })).status).toBe(201);
      const olive = await createUser(server.db, { name: `Olive Quiet ${viewport.width}` });
      await server.db
        .updateTable("accounts")
        .set({ name: `Olive Quiet ${viewport.width}` })
        .where("id", "=", olive.id)
        .execute();
      const prospect = `dana-${viewport.width}@example.com`;
      const consultation = await new ApiClient(server.url).post("/api/consultation/request", {
        name: `Dana Prospect ${viewport.width}`,
        email: prospect,
        phone: "(202) 555-0199",
        service: "bookkeeping",
      });
      expect(consultation.status, consultation.text).toBe(200);

      const t = await signedInAdmin(viewport);
      const { page } = t;
      await screenshotOnFailure(page, `firm-day-${viewport.width}`, async () => {
        await page.goto("/admin/dashboard?tab=inbox");
        // The header names the firm.
        await page.getByRole("banner").getByText(DEFAULT_FIRM_NAME).waitFor();
        const items = page.getByRole("list", { name: "Inbox items" });
        const uploads = items.getByRole("button", { name: `Maria Garcia ${viewport.width} uploaded 10 files` });
        await uploads.waitFor();
        await items.getByRole("button", { name: new RegExp(`Maria Garcia ${viewport.width} sent a message`) }).waitFor();
        // People by name, the account by its name: never a login.
        await items.getByText(`Garcia Household ${viewport.width}`).first().waitFor();
        expect(await items.getByText(maria.username!).count()).toBe(0);
        expect(await horizontalOverflow(page)).toBe(0);
        let violations = await checkA11y(page, { exclude: ["[data-sonner-toaster]"] });
        expect(violations, formatViolations(violations)).toEqual([]);
        await shot(page, "inbox");

        // A reply in place: the message's item is read once answered.
        const messageRow = items.locator("li", { hasText: `Maria Garcia ${viewport.width} sent a message` });
        await messageRow.getByRole("button", { name: "Reply" }).click();
        await messageRow.getByLabel(`Reply to Maria Garcia ${viewport.width}`).fill("Yes, it is here. Thank you!");
        violations = await checkA11y(page, { exclude: ["[data-sonner-toaster]"] });
        expect(violations, formatViolations(violations)).toEqual([]);
        await shot(page, "inbox-reply");
        await messageRow.getByRole("button", { name: "Send reply" }).click();
        await toast(page, `Reply sent to Maria Garcia ${viewport.width}`).waitFor();
        await messageRow.getByText("Unread:").waitFor({ state: "detached" });

        // A consultation request becomes an invited client in one step.
        await items.getByRole("button", { name: `Invite as client, request from Dana Prospect ${viewport.width}` }).click();
        await toast(page, `Invitation sent to ${prospect}`).waitFor();
        await expect
          .poll(
            async () => (await server.db.selectFrom("invitations").select("account_id").where("email", "=", prospect).executeTakeFirst())?.account_id,
          )
          .toEqual(expect.any(String));

        // Opening an item lands on the account's documents; Back returns to the Inbox, on the same item.
        await uploads.click();
        await page.waitForURL((url) => url.pathname === `/admin/accounts/${maria.id}` && url.searchParams.get("section") === "documents");
        await page.goBack();
        await page.waitForURL((url) => url.pathname === "/admin/dashboard" && url.searchParams.get("tab") === "inbox");
        await expect.poll(() => uploads.evaluate((el) => el === document.activeElement)).toBe(true);

        // The firm starts a conversation with a client picked by name.
        await page.goto("/admin/dashboard?tab=messages");
        await page.getByRole("button", { name: "New message" }).click();
        const dialog = page.getByRole("dialog", { name: "New message" });
        await dialog.getByLabel("Search clients").fill(`Olive Quiet ${viewport.width}`);
        await dialog.getByRole("radio", { name: new RegExp(`Olive Quiet ${viewport.width}`) }).check();
        await dialog.getByLabel(`Message to Olive Quiet ${viewport.width}`).fill("Your 2025 organizer is ready.");
        violations = await checkA11y(page, { include: ['[role="dialog"]'] });
        expect(violations, formatViolations(violations)).toEqual([]);
        await shot(page, "new-message");
        await dialog.getByRole("button", { name: "Send message" }).click();
        await dialog.waitFor({ state: "detached" });
        await page.getByRole("heading", { name: `Olive Quiet ${viewport.width}` }).waitFor();
        await page.getByText("Your 2025 organizer is ready.", { exact: true }).filter({ visible: true }).first().waitFor();
        expect(
          (await server.db.selectFrom("messages").select("sender_role").where("account_id", "=", olive.id).execute()).map((m) => m.sender_role),
        ).toEqual(["admin"]);
        await shot(page, "messages");

        // The Site tab: the public site's content apart from the firm's settings.
        await page.goto("/admin/dashboard?tab=site");
        const areas = page.getByRole("navigation", { name: "Site areas" });
        await expect(areas.getByRole("button", { name: "Site content" }).getAttribute("aria-current")).resolves.toBe("page");
        await areas.getByRole("button", { name: "Firm settings" }).click();
        await page.getByRole("region", { name: "Client registration" }).waitFor();
        expect(await horizontalOverflow(page)).toBe(0);
        violations = await checkA11y(page, { exclude: ["[data-sonner-toaster]"] });
        expect(violations, formatViolations(violations)).toEqual([]);
        await shot(page, "site-settings");

        // Appointment times name their zone.
        await openTab(page, "appointments");
        await page
          .getByText(/\d{1,2}:\d{2}\s?[AP]M [A-Z][A-Za-z+\d:-]*/)
          .first()
          .waitFor();
        await shot(page, "appointments");
      });
      t.expectNoConsoleErrors();
      await t.close();
    }, 120_000);
  }
});
