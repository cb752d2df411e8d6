/*
 * Self-booking in Chromium against the real server: the admin adds a meeting type and changes the
 * opening hours in the Availability view, then a client whose browser is in Berlin (the firm is in
 * Chicago) books, moves and cancels an appointment. The server's clock is set to Wednesday
 * 2027-03-10, between the US and the European switch to summer time, when Chicago is 6 hours
 * behind Berlin instead of 7: the times shown must follow. Every view passes axe at 1280 and 390 px.
 * The steps share one server and run in order.
 */
import type { Browser, Locator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectAccessibleAtBothWidths, releaseBrowser, screenshotOnFailure, sharedBrowser, type TestPage, viewports } from "../helpers/browser.ts";
import { signedInPage } from "../helpers/admin-sign-in.ts";
import { createUser, loginClient, type UserFixture } from "../helpers/factories.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

const NOW = new Date("2027-03-10T14:00:00Z");

let server: TestServer;
let browser: Browser;
let admin: TestPage;
let client: TestPage;
let clientUser: UserFixture;

const text = (value: string) => value.replace(/\s+/g, " ").trim();

async function expectToast(page: Page, message: string) {
  await page.locator("[data-sonner-toast]", { hasText: message }).first().waitFor({ timeout: 10_000 });
}

/** The label around a visually hidden radio: what a person taps. */
function optionOf(within: Page | Locator, name: string | RegExp) {
  return within.getByRole("radio", { name }).locator("xpath=..");
}

beforeAll(async () => {
  server = await startTestServer();
  server.clock.set(NOW);
  browser = await sharedBrowser();
  const adminUser = await createUser(server.db, { is_admin: true, name: "Office Admin" });
  clientUser = await createUser(server.db, { name: "Greta Lindqvist" });
  admin = await signedInPage(browser, server.url, adminUser, "admin", { timezoneId: "America/Chicago", clock: NOW });
  client = await signedInPage(browser, server.url, clientUser, "client", { timezoneId: "Europe/Berlin", clock: NOW });
}, 120_000);

afterAll(async () => {
  await admin?.close();
  await client?.close();
  await releaseBrowser(browser);
  await server?.close();
});

describe("self-booking", () => {
  it("the admin adds a meeting type and Saturday morning hours and a day off, in the Availability view", async () => {
    const { page } = admin;
    await screenshotOnFailure(page, "booking-admin-availability", async () => {
      await page.goto("/admin/dashboard?tab=appointments");
      await page.getByRole("tab", { name: "Availability" }).click();
      await page.getByText("No meeting types yet: add one to open online booking.").waitFor();

      await page.getByRole("button", { name: "New meeting type" }).click();
      const dialog = page.getByRole("dialog", { name: "New meeting type" });
      await dialog.getByLabel("Name").fill("Tax review");
      await dialog.getByLabel("Length (minutes)").fill("60");
      await dialog.getByLabel("Free time after (minutes)").fill("15");
      await dialog.getByLabel("Where").selectOption("video");
      await dialog.getByLabel("Location details").fill("https://meet.example.com/harborline");
      await expectAccessibleAtBothWidths(page, "booking-admin-meeting-type-dialog", ['[role="dialog"]']);
      await dialog.getByRole("button", { name: "Add meeting type" }).click();
      await expectToast(page, "Meeting type added");
      await dialog.waitFor({ state: "detached" });
      await page.getByRole("list", { name: "Meeting types" }).getByText("60 min, then 15 min free · Video call").waitFor();

      await page.getByRole("button", { name: "Add hours on Saturday" }).click();
      await page.getByLabel("Saturday from").fill("10:00");
      await page.getByLabel("Saturday until").fill("12:00");
      await page.getByLabel("Add a day off").fill("2027-03-15");
      await page.getByRole("button", { name: "Add day off" }).click();
      await page.getByRole("list", { name: "Days off" }).getByText("Mar 15, 2027").waitFor();
      const perClient = page.getByLabel("Upcoming bookings per client");
      expect(await perClient.inputValue()).toBe("3");
      await perClient.fill("1");
      await expectAccessibleAtBothWidths(page, "booking-admin-availability");
      await page.getByRole("button", { name: "Save availability" }).click();
      await expectToast(page, "Availability saved");

      const saved = await server.db
        .selectFrom("availability_ranges")
        .select(["weekday", "start_minute", "end_minute"])
        .where("weekday", "=", 6)
        .execute();
      expect(saved).toEqual([{ weekday: 6, start_minute: 600, end_minute: 720 }]);
      expect(await server.db.selectFrom("days_off").select("day").execute()).toEqual([{ day: "2027-03-15" }]);
      expect(await server.db.selectFrom("booking_settings").select("max_upcoming_bookings").executeTakeFirst()).toEqual({ max_upcoming_bookings: 1 });
      expect(await server.db.selectFrom("meeting_types").select(["name", "duration_minutes", "buffer_minutes", "location"]).execute()).toEqual([
        { name: "Tax review", duration_minutes: 60, buffer_minutes: 15, location: "video" },
      ]);
    });
  });

  it("a client in Berlin sees the firm's hours on Berlin's clock and books a time", async () => {
    const { page } = client;
    await screenshotOnFailure(page, "booking-client-book", async () => {
      await page.goto("/dashboard?tab=appointments");
      await page.getByRole("button", { name: "Schedule New Appointment" }).click();
      const dialog = page.getByRole("dialog", { name: "Book an appointment" });
      await dialog.getByText("Times are in your time zone (Europe/Berlin). The firm is in Central Time.").waitFor();
      await optionOf(dialog, /Tax review/).click();

      // The 24 hours' notice from Wednesday 8:00 in Chicago: Thursday the 11th is the first day.
      await dialog.getByText("March 2027").waitFor();
      expect(await dialog.getByRole("radio", { name: /^Wednesday, March 10, 2027/ }).isDisabled()).toBe(true);
      // The day off and Sunday have no times.
      expect(await dialog.getByRole("radio", { name: /^Monday, March 15, 2027, no free times/ }).isDisabled()).toBe(true);
      expect(await dialog.getByRole("radio", { name: /^Sunday, March 14, 2027/ }).isDisabled()).toBe(true);

      const timesOn = async (day: string) => {
        await optionOf(dialog, new RegExp(`^${day}`)).click();
        const group = dialog.getByRole("group", { name: `Free times on ${day}` });
        await group.locator("label").first().waitFor();
        return (await group.locator("label").allInnerTexts()).map(text);
      };
      // Friday the 12th: Chicago is on standard time (UTC-6), Berlin too (UTC+1): 9:00 is 16:00.
      const friday = await timesOn("Friday, March 12, 2027");
      expect(friday[0]).toBe("4:00 PM");
      expect(friday.at(-1)).toBe("11:00 PM");
      // Saturday the 13th: the new hours, 10:00 to 12:00 in Chicago for a 60-minute meeting.
      expect(await timesOn("Saturday, March 13, 2027")).toEqual(["5:00 PM", "5:30 PM", "6:00 PM"]);
      // Tuesday the 16th: Chicago has moved to summer time (UTC-5), Berlin not yet: 9:00 is 15:00.
      const tuesday = await timesOn("Tuesday, March 16, 2027");
      expect(tuesday[0]).toBe("3:00 PM");
      expect(tuesday.at(-1)).toBe("10:00 PM");

      await optionOf(dialog.getByRole("group", { name: "Free times on Tuesday, March 16, 2027" }), /^4:00\sPM$/).click();
      await dialog.getByText(/\(10:00\sAM Central Time at the firm\)/).waitFor();
      await expectAccessibleAtBothWidths(page, "booking-client-dialog", ['[role="dialog"]']);
      await dialog.getByRole("button", { name: "Book appointment" }).click();
      await expectToast(page, "Appointment booked");
      await dialog.waitFor({ state: "detached" });

      const item = page.getByRole("listitem").filter({ hasText: "Tax review" });
      await expect.poll(async () => text(await item.innerText())).toMatch(/Mar 16, 2027, 4:00\s?–\s?5:00 PM GMT\+1/);
      expect(text(await item.innerText())).toContain("Video call: https://meet.example.com/harborline");
      const booked = await server.db
        .selectFrom("appointments")
        .select(["appointment_date", "status"])
        .where("account_id", "=", clientUser.id)
        .execute();
      expect(booked).toEqual([{ appointment_date: new Date("2027-03-16T15:00:00Z"), status: "scheduled" }]);
      await expectAccessibleAtBothWidths(page, "booking-client-appointments");
    });
  });

  it("the admin's week view shows the booking on the firm's clock", async () => {
    const { page } = admin;
    await screenshotOnFailure(page, "booking-admin-week", async () => {
      await page.getByRole("tab", { name: "Week" }).click();
      await page.getByRole("heading", { name: "Week of March 8, 2027" }).waitFor();
      await page.getByRole("button", { name: "Next week" }).click();
      await page.getByRole("heading", { name: "Week of March 15, 2027" }).waitFor();
      const tuesday = page.getByRole("listitem").filter({ has: page.getByRole("heading", { name: "Tue, Mar 16" }) });
      await expect.poll(async () => text(await tuesday.innerText())).toMatch(/10:00\s?–\s?11:00 AM Greta Lindqvist Tax review Scheduled/);
      await expectAccessibleAtBothWidths(page, "booking-admin-week");
    });
  });

  it("the client moves the booking to another day and time", async () => {
    const { page } = client;
    await screenshotOnFailure(page, "booking-client-move", async () => {
      await page.getByRole("button", { name: "Reschedule Tax review" }).click();
      const dialog = page.getByRole("dialog", { name: "Move your appointment" });
      await dialog.getByText(/^Moving Tax review, now on Tuesday, March 16, 2027/).waitFor();
      await optionOf(dialog, /^Wednesday, March 17, 2027/).click();
      await optionOf(dialog.getByRole("group", { name: "Free times on Wednesday, March 17, 2027" }), /^5:00\sPM$/).click();
      await dialog.getByRole("button", { name: "Move appointment" }).click();
      await expectToast(page, "Appointment moved");
      await dialog.waitFor({ state: "detached" });
      const item = page.getByRole("listitem").filter({ hasText: "Tax review" });
      await expect.poll(async () => text(await item.innerText())).toMatch(/Mar 17, 2027, 5:00\s?–\s?6:00 PM GMT\+1/);
      const moved = await server.db
        .selectFrom("appointments")
        .select(["appointment_date", "ends_at", "status"])
        .where("account_id", "=", clientUser.id)
        .execute();
      expect(moved).toEqual([{ appointment_date: new Date("2027-03-17T16:00:00Z"), ends_at: new Date("2027-03-17T17:00:00Z"), status: "scheduled" }]);

      // On a phone, the booking dialog fits and passes axe too.
      await page.setViewportSize(viewports.mobile);
      await page.getByRole("button", { name: "Schedule New Appointment" }).click();
      const booking = page.getByRole("dialog", { name: "Book an appointment" });
      await optionOf(booking, /Tax review/).click();
      await optionOf(booking, /^Thursday, March 18, 2027/).click();
      await booking.getByRole("group", { name: /^Free times on Thursday, March 18, 2027/ }).waitFor();
      await expectAccessibleAtBothWidths(page, "booking-client-dialog-phone", ['[role="dialog"]']);
      await booking.getByRole("button", { name: "Cancel" }).click();
      await booking.waitFor({ state: "detached" });
    });
  });

  it("the client cancels the booking after confirming, and the time is free again", async () => {
    const { page } = client;
    await screenshotOnFailure(page, "booking-client-cancel", async () => {
      await page.getByRole("button", { name: "Cancel Tax review" }).click();
      const confirm = page.getByRole("alertdialog", { name: "Cancel appointment" });
      await confirm.getByText("Are you sure you want to cancel this appointment?").waitFor();
      await confirm.getByRole("button", { name: "Cancel appointment" }).click();
      await expectToast(page, "Appointment cancelled");
      const item = page.getByRole("listitem").filter({ hasText: "Tax review" });
      await expect.poll(async () => text(await item.innerText())).toContain("Cancelled");
      expect(await page.getByRole("button", { name: "Reschedule Tax review" }).count()).toBe(0);
      const row = await server.db.selectFrom("appointments").select("status").where("account_id", "=", clientUser.id).executeTakeFirstOrThrow();
      expect(row.status).toBe("cancelled");

      await page.getByRole("button", { name: "Schedule New Appointment" }).click();
      const dialog = page.getByRole("dialog", { name: "Book an appointment" });
      await optionOf(dialog, /Tax review/).click();
      await optionOf(dialog, /^Wednesday, March 17, 2027/).click();
      await dialog
        .getByRole("group", { name: "Free times on Wednesday, March 17, 2027" })
        .getByRole("radio", { name: /^5:00\sPM$/ })
        .waitFor();
      await dialog.getByRole("button", { name: "Cancel" }).click();
      client.expectNoConsoleErrors();
      admin.expectNoConsoleErrors();
    });
  });

  it("a client holding as many bookings as the firm allows is told why in the dialog (issue 28)", async () => {
    const { page } = client;
    await screenshotOnFailure(page, "booking-client-at-cap", async () => {
      // The firm allows 1 (set above); the client books one in another tab.
      const api = await loginClient(server.url, clientUser);
      const type = await server.db.selectFrom("meeting_types").select("id").executeTakeFirstOrThrow();
      expect((await api.post("/api/appointments/book", { type: type.id, start: "2027-03-18T10:00:00-05:00" })).status).toBe(201);

      await page.getByRole("button", { name: "Schedule New Appointment" }).click();
      const dialog = page.getByRole("dialog", { name: "Book an appointment" });
      await optionOf(dialog, /Tax review/).click();
      await optionOf(dialog, /^Friday, March 19, 2027/).click();
      await optionOf(dialog.getByRole("group", { name: "Free times on Friday, March 19, 2027" }), /^4:00\sPM$/).click();
      await dialog.getByRole("button", { name: "Book appointment" }).click();
      await dialog
        .getByRole("alert")
        .getByText("You already have 1 upcoming appointment booked online, the most we allow. Please cancel or move one, or call us.")
        .waitFor();
      await expectAccessibleAtBothWidths(page, "booking-client-at-cap", ['[role="dialog"]']);
      await dialog.getByRole("button", { name: "Cancel" }).click();
      client.expectNoConsoleErrors({ allow: [/status of 409/] });
    });
  });
});
