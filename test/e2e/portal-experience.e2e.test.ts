/*
 * What a client meets in the portal, in Chromium against the real server and database: documents
 * first at 390 and 1280 px, one list of folders and files, drop anywhere over it, confirmed folder
 * deletions, field errors in the New Folder dialog, the end of a session, the account menu, the
 * requested appointment's window, load errors with Retry, and touch targets on a phone.
 */
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect } from "vitest";
import { zonedTime } from "../../server/domains/appointments/service.ts";
import {
  checkA11y,
  formatViolations,
  headingOrderSkips,
  horizontalOverflow,
  newPage,
  releaseBrowser,
  screenshotOnFailure,
  sharedBrowser,
  takeScreenshot,
  type TestPage,
  viewports,
} from "../helpers/browser.ts";
import { browserTest } from "../helpers/browser-test.ts";
import { createUser, type UserFixture } from "../helpers/factories.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

let server: TestServer;
let browser: Browser;

beforeAll(async () => {
  server = await startTestServer();
  browser = await sharedBrowser();
}, 120_000);

afterAll(async () => {
  await releaseBrowser(browser);
  await server?.close();
});

const it = browserTest(() => ({ browser, baseUrl: server.url }));

async function upload(t: TestPage, name: string, bytes: number, folderId?: string): Promise<void> {
  const res = await t.page.request.post("/api/documents/upload", {
    headers: { Origin: server.url },
    multipart: {
      ...(folderId ? { folder_id: folderId } : {}),
      file: { name, mimeType: "application/octet-stream", buffer: Buffer.alloc(bytes, 7) },
    },
  });
  expect(res.status(), await res.text()).toBe(201);
}

async function folder(user: UserFixture, name: string, parent: string | null = null): Promise<string> {
  const row = await server.db
    .insertInto("folders")
    .values({ account_id: user.id, name, parent_folder_id: parent, color: "#10B981", created_at: new Date() })
    .returning("id")
    .executeTakeFirstOrThrow();
  return row.id;
}

async function expectAccessible(page: Page) {
  const violations = await checkA11y(page);
  expect(violations, formatViolations(violations)).toEqual([]);
}

const toast = (page: Page, text: string) => page.locator("[data-sonner-toast]", { hasText: text });
const LONG_NAME = `${"Quarterly statement of accounts receivable ".repeat(4).trim()}.xlsx`;

describe("client portal", { timeout: 90_000 }, () => {
  for (const viewport of [viewports.mobile, viewports.desktop]) {
    it(`puts the documents first at ${viewport.width}px: one row of tabs, a compact upload strip, one list`, async ({ login }) => {
      const user = await createUser(server.db, { name: "Dana Whitfield" });
      const t = await login(user, "client", { viewport });
      await folder(user, "Payroll");
      await folder(user, "Receipts 2024");
      await upload(t, "notes.txt", 12);
      await upload(t, LONG_NAME, 4000);
      const { page } = t;
      await screenshotOnFailure(page, `documents-first-${viewport.width}`, async () => {
        await page.goto("/dashboard");
        const list = page.getByRole("region", { name: "Contents of the top level" });
        const firstDocument = list.getByRole("list", { name: "Documents" }).getByRole("listitem").first();
        await firstDocument.waitFor();
        // The first document is on the first screen.
        const box = (await firstDocument.boundingBox())!;
        expect(box.y + box.height).toBeLessThanOrEqual(viewport.height);
        // Folders and files in one list: the folder rows sit in the same box as the documents.
        expect(await list.getByRole("list", { name: "Folders" }).getByRole("button", { name: "Payroll", exact: true }).count()).toBe(1);
        // The tabs are one row (scrolling sideways on a phone if they must).
        const tabTops = await page.getByRole("tab").evaluateAll((tabs) => tabs.map((tab) => Math.round(tab.getBoundingClientRect().top)));
        expect(new Set(tabTops).size).toBe(1);
        expect((await page.getByTestId("upload-area").locator("> div").first().boundingBox())!.height).toBeLessThanOrEqual(140);
        // Tiny files do not read "0.0 KB"; a long name keeps its extension in view.
        expect(await list.getByRole("listitem").filter({ hasText: "notes.txt" }).innerText()).toContain("< 0.1 KB");
        const longRow = list.getByRole("listitem").filter({ hasText: ".xlsx" });
        const extension = longRow.getByText(".xlsx", { exact: true });
        expect(await extension.isVisible()).toBe(true);
        const rowBox = (await longRow.boundingBox())!;
        const extBox = (await extension.boundingBox())!;
        expect(extBox.x + extBox.width).toBeLessThanOrEqual(rowBox.x + rowBox.width);
        expect(await longRow.locator("svg.lucide-file-spreadsheet").count()).toBe(1);
        expect(await list.getByRole("listitem").filter({ hasText: "notes.txt" }).locator("svg.lucide-file-text").count()).toBe(1);
        // The specification's Delete button is red: in the row from 640 px, in the row's menu on a phone.
        const banner = page.getByRole("banner");
        let deleteColor: string;
        if (viewport.width >= 640) {
          const deleteButton = longRow.getByRole("button", { name: `Delete ${LONG_NAME}` });
          expect(await deleteButton.innerText()).toBe("Delete");
          deleteColor = await deleteButton.evaluate((el) => getComputedStyle(el).color);
          // The specification's top bar: the user's name and Logout, both in view.
          expect(await banner.getByRole("button", { name: "Dana Whitfield" }).isVisible()).toBe(true);
          expect(await banner.getByRole("button", { name: "Logout" }).isVisible()).toBe(true);
        } else {
          expect(await longRow.getByRole("button", { name: `Delete ${LONG_NAME}` }).count()).toBe(0);
          await longRow.getByRole("button", { name: /^Actions for / }).click();
          const deleteItem = page.getByRole("menuitem", { name: "Delete" });
          deleteColor = await deleteItem.evaluate((el) => getComputedStyle(el).color);
          await page.keyboard.press("Escape");
          await deleteItem.waitFor({ state: "detached" });
          // On a phone the name stays in the bar and Logout folds into its menu.
          expect(await banner.getByRole("button", { name: "Dana Whitfield" }).isVisible()).toBe(true);
          expect(await banner.getByRole("button", { name: "Logout" }).count()).toBe(0);
        }
        const [r, g, b] = deleteColor.match(/\d+/g)!.map(Number);
        expect(r).toBeGreaterThan(150);
        expect(g! + b!).toBeLessThan(r!);
        expect(await horizontalOverflow(page)).toBe(0);
        await expectAccessible(page);
        await takeScreenshot(page, "documents-first");
      });
      t.expectNoConsoleErrors();
      await t.close();
    });
  }

  it("takes a file dropped anywhere over the list, and refuses one over 10 MB before sending it", async ({ login }) => {
    const user = await createUser(server.db);
    const t = await login(user, "client");
    await folder(user, "Taxes");
    const { page } = t;
    await screenshotOnFailure(page, "drop-over-list", async () => {
      await page.goto("/dashboard");
      const list = page.getByRole("region", { name: "Contents of the top level" });
      await list.getByText("No documents in root folder.").waitFor();
      const transfer = await page.evaluateHandle(() => {
        const data = new DataTransfer();
        data.items.add(new File(["dropped on the list"], "dropped.txt", { type: "text/plain" }));
        return data;
      });
      const target = list.getByText("No documents in root folder.");
      await target.dispatchEvent("dragover", { dataTransfer: transfer });
      await expect.poll(() => page.getByTestId("drop-overlay").evaluate((el) => getComputedStyle(el).opacity)).toBe("1");
      await target.dispatchEvent("drop", { dataTransfer: transfer });
      await list.getByRole("listitem").filter({ hasText: "dropped.txt" }).waitFor();

      const uploads: string[] = [];
      page.on("request", (request) => {
        if (request.url().includes("/api/documents/upload")) uploads.push(request.url());
      });
      const chooser = page.waitForEvent("filechooser");
      await page.getByRole("button", { name: "Upload Files" }).click();
      // Watched for from before the file is handed over: handing 10 MB to a loaded browser took
      // longer than the toast stays (it had come and gone when the wait began).
      const refused = toast(page, "File upload failed").getByText("File is larger than 10MB").waitFor();
      await (await chooser).setFiles({ name: "scan.pdf", mimeType: "application/pdf", buffer: Buffer.alloc(10 * 1024 * 1024 + 1) });
      await refused;
      expect(await page.getByRole("list", { name: "Upload queue" }).getByRole("listitem").filter({ hasText: "scan.pdf" }).innerText()).toContain(
        "File is larger than 10MB",
      );
      await page.waitForTimeout(300);
      expect(uploads).toEqual([]);
    });
    t.expectNoConsoleErrors();
    await t.close();
  });

  it("confirms every folder deletion and says what a non-empty folder holds", async ({ login }) => {
    const user = await createUser(server.db);
    const t = await login(user, "client", { viewport: viewports.mobile });
    const full = await folder(user, "Full");
    await folder(user, "Inner", full);
    for (const name of ["a.pdf", "b.pdf", "c.pdf"]) await upload(t, name, 100, full);
    await folder(user, "Empty");
    const { page } = t;
    await screenshotOnFailure(page, "folder-delete", async () => {
      await page.goto("/dashboard");
      await page.getByRole("button", { name: "Actions for folder Full" }).click();
      await page.getByRole("menuitem", { name: "Delete Folder" }).click();
      const notEmpty = page.getByRole("alertdialog", { name: "This folder is not empty" });
      await notEmpty.getByText('"Full" holds 3 documents and 1 folder. Delete or move them first, then delete the folder.').waitFor();
      await expectAccessible(page);
      await takeScreenshot(page, "folder-not-empty");
      await notEmpty.getByRole("button", { name: "Open Folder" }).click();
      await page.getByRole("region", { name: "Contents of folder Full" }).waitFor();
      await page.getByRole("navigation", { name: "Folder path" }).getByRole("button", { name: "Root" }).click();

      await page.getByRole("button", { name: "Actions for folder Empty" }).click();
      await page.getByRole("menuitem", { name: "Delete Folder" }).click();
      const confirm = page.getByRole("alertdialog", { name: "Delete folder" });
      await confirm.getByText('Are you sure you want to delete the folder "Empty"?').waitFor();
      await confirm.getByRole("button", { name: "Cancel" }).click();
      await confirm.waitFor({ state: "detached" });
      expect(await server.db.selectFrom("folders").select("id").where("name", "=", "Empty").execute()).toHaveLength(1);
      await page.getByRole("button", { name: "Actions for folder Empty" }).click();
      await page.getByRole("menuitem", { name: "Delete Folder" }).click();
      const deleteButton = page.getByRole("alertdialog").getByRole("button", { name: "Delete Folder" });
      await expect.poll(() => deleteButton.isEnabled()).toBe(true);
      const red = await deleteButton.evaluate((el) => getComputedStyle(el).backgroundColor);
      const [r, g, b] = red.match(/\d+/g)!.map(Number);
      expect(r).toBeGreaterThan(g! + b! - 50);
      await deleteButton.click();
      await toast(page, "Folder deleted successfully").waitFor();
      expect(await server.db.selectFrom("folders").select("id").where("name", "=", "Empty").execute()).toHaveLength(0);
    });
    t.expectNoConsoleErrors();
    await t.close();
  });

  it("shows a duplicate folder name on the name field, and moves the focus into a folder opened with Enter", async ({ login }) => {
    const user = await createUser(server.db);
    const t = await login(user, "client", { reducedMotion: "reduce" });
    await folder(user, "Taxes");
    const { page } = t;
    await screenshotOnFailure(page, "folder-name-taken", async () => {
      await page.goto("/dashboard");
      await page.getByRole("button", { name: "New Folder" }).click();
      const dialog = page.getByRole("dialog", { name: "New Folder" });
      const name = dialog.getByLabel("Folder name");
      await name.fill("Taxes");
      await dialog.getByRole("button", { name: "Create Folder" }).click();
      await expect.poll(() => name.getAttribute("aria-invalid")).toBe("true");
      const errorId = (await name.getAttribute("aria-describedby"))!;
      expect(await page.locator(`[id="${errorId}"]`).textContent()).toBe('A folder named "Taxes" already exists here');
      await expect.poll(() => name.evaluate((el) => el === document.activeElement)).toBe(true);
      expect(await page.locator("[data-sonner-toast]").count()).toBe(0);
      await expectAccessible(page);
      await takeScreenshot(page, "folder-name-taken");
      await page.keyboard.press("Escape");
      await dialog.waitFor({ state: "detached" });

      await page.getByRole("list", { name: "Folders" }).getByRole("button", { name: "Taxes", exact: true }).focus();
      await page.keyboard.press("Enter");
      const content = page.getByRole("region", { name: "Contents of folder Taxes" });
      await expect.poll(() => content.evaluate((el) => el === document.activeElement)).toBe(true);
    });
    t.expectNoConsoleErrors({ allow: [/status of 409/] });
    await t.close();
  });

  it("sends a client whose session ended to sign-in with a message, and back to the same place afterwards", async ({ login }) => {
    const user = await createUser(server.db);
    const t = await login(user, "client");
    await t.context.addInitScript(() => window.localStorage.setItem("hasSeenWelcomeVideo", "true"));
    const taxes = await folder(user, "Taxes");
    const { page } = t;
    await screenshotOnFailure(page, "session-ended", async () => {
      await page.goto(`/dashboard?tab=documents&folder=${taxes}`);
      await page.getByText('No documents in "Taxes" folder.').waitFor();
      // Ended elsewhere (a sign-out on another device, a password reset): every session row is gone.
      await server.db.deleteFrom("sessions").where("user_id", "=", user.id).execute();
      await page.getByRole("tab", { name: "Appointments" }).click();
      await page.waitForURL((url) => url.pathname === "/");
      const dialog = page.getByRole("dialog", { name: "Client Portal" });
      await dialog.getByText("Your session has ended. Please sign in again.").waitFor();
      expect(await toast(page, "Not authenticated").count()).toBe(0);
      await page.waitForFunction(() => location.search === "");
      await expectAccessible(page);
      await takeScreenshot(page, "session-ended");
      await dialog.getByLabel("Username").fill(user.username!);
      await dialog.getByLabel("Password", { exact: true }).fill(user.password);
      await dialog.getByRole("button", { name: "Login" }).click();
      await page.waitForURL((url) => url.pathname === "/dashboard");
      const url = new URL(page.url());
      expect(url.searchParams.get("tab")).toBe("appointments");
      expect(url.searchParams.get("folder")).toBe(taxes);
    });
    t.expectNoConsoleErrors({ allow: [/status of 401/] });
    await t.close();
  });

  it("returns only to the portal's own pages after sign-in", async () => {
    const user = await createUser(server.db);
    const t = await newPage(browser, { baseURL: server.url });
    await t.context.addInitScript(() => window.localStorage.setItem("hasSeenWelcomeVideo", "true"));
    await t.page.goto("/?session_ended=1&next=//evil.example/dashboard");
    const dialog = t.page.getByRole("dialog", { name: "Client Portal" });
    await dialog.getByLabel("Username").fill(user.username!);
    await dialog.getByLabel("Password", { exact: true }).fill(user.password);
    await dialog.getByRole("button", { name: "Login" }).click();
    await t.page.waitForURL((url) => url.pathname === "/dashboard");
    expect(new URL(t.page.url()).host).toBe(new URL(server.url).host);
    t.expectNoConsoleErrors();
    await t.close();
  });

  it("opens the account menu from the user's name, links the logo home, and has a skip link", async ({ login }) => {
    const user = await createUser(server.db, { name: "Erin Moss" });
    const t = await login(user, "client", { viewport: viewports.mobile });
    const { page } = t;
    await screenshotOnFailure(page, "account-menu", async () => {
      await page.goto("/dashboard");
      await page.getByRole("heading", { level: 1 }).waitFor();
      await page.keyboard.press("Tab");
      const skip = page.getByRole("link", { name: "Skip to main content" });
      await expect.poll(() => skip.evaluate((el) => el === document.activeElement)).toBe(true);
      expect(await skip.isVisible()).toBe(true);
      await page.keyboard.press("Enter");
      await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe("main");

      const banner = page.getByRole("banner");
      expect(await banner.getByRole("link").first().getAttribute("href")).toBe("/");
      await banner.getByRole("button", { name: "Erin Moss" }).click();
      const menu = page.getByRole("menu");
      await menu.getByText(user.email).waitFor();
      await expectAccessible(page);
      await takeScreenshot(page, "account-menu");
      await menu.getByRole("menuitem", { name: "Logout" }).click();
      await page.waitForURL((url) => url.pathname === "/");
      expect(await server.db.selectFrom("sessions").select("id").where("user_id", "=", user.id).execute()).toEqual([]);
    });
    t.expectNoConsoleErrors();
    await t.close();
  });

  it("shows a requested appointment's window on the firm's clock, and a set time with its zone named", async () => {
    const user = await createUser(server.db);
    await server.db
      .insertInto("appointments")
      .values([
        {
          account_id: user.id,
          title: "Tax review",
          description: "",
          status: "requested",
          appointment_date: zonedTime("2030-03-05", 12, "America/Chicago"),
        },
        { account_id: user.id, title: "Payroll setup", description: "", status: "scheduled", appointment_date: new Date("2030-03-06T15:30:00Z") },
      ])
      .execute();
    const context = await browser.newContext({ baseURL: server.url, viewport: viewports.desktop, timezoneId: "America/New_York" });
    const page = await context.newPage();
    const res = await page.request.post("/api/auth/login", {
      data: { username: user.username, password: user.password },
      headers: { Origin: server.url },
    });
    expect(res.status()).toBe(200);
    await page.goto("/dashboard?tab=appointments");
    const requested = page.getByRole("listitem").filter({ hasText: "Tax review" });
    await requested.waitFor();
    const requestedText = await requested.innerText();
    expect(requestedText).toContain("Mar 5, 2030, Afternoon (12 PM-5 PM), Central Standard Time");
    expect(requestedText).not.toMatch(/1:00 PM|12:00 PM/);
    // 15:30 UTC is 10:30 AM in New York in March (standard time), and says so.
    expect(await page.getByRole("listitem").filter({ hasText: "Payroll setup" }).innerText()).toContain("10:30 AM EST");
    await context.close();
  });

  it("says when the documents could not be loaded, and Retry loads them", async ({ login }) => {
    const user = await createUser(server.db);
    const t = await login(user, "client");
    await upload(t, "w2.pdf", 300);
    const { page } = t;
    let failing = true;
    await page.route(/\/trpc\/.*documents\.root/, (route) => (failing ? route.abort("failed") : route.continue()));
    await screenshotOnFailure(page, "documents-load-error", async () => {
      await page.goto("/dashboard");
      const alert = page.getByRole("alert").filter({ hasText: "Your documents could not be loaded." });
      await alert.waitFor({ timeout: 15_000 });
      await expectAccessible(page);
      await takeScreenshot(page, "documents-load-error");
      failing = false;
      // The Recent activity card shares the failed batch and offers its own Retry.
      await page.getByTestId("upload-area").getByRole("button", { name: "Retry" }).click();
      await page.getByRole("list", { name: "Documents" }).getByText("w2.pdf").waitFor();
    });
    t.expectNoConsoleErrors({ allow: [/Failed to load (documents|folders|storage usage)/, /ERR_FAILED/] });
    await t.close();
  });

  it("keeps a document's extension on rename, measures a new password as it is typed, and fits every placeholder (390 and 1280 px)", async ({
    login,
  }) => {
    const user = await createUser(server.db, { name: "Rhea Quill" });
    const t = await login(user, "client", { viewport: viewports.mobile, reducedMotion: "reduce" });
    const { page } = t;
    await upload(t, "scan-0017.pdf", 300);
    const scripts: string[] = [];
    page.on("request", (request) => {
      if (request.resourceType() === "script") scripts.push(request.url());
    });
    await screenshotOnFailure(page, "portal-rename-password", async () => {
      await page.goto("/dashboard");
      await page.getByRole("button", { name: "Actions for scan-0017.pdf" }).click();
      await page.getByRole("menuitem", { name: "Rename" }).click();
      const dialog = page.getByRole("dialog", { name: "Rename document" });
      const name = dialog.getByLabel("New name");
      // The base name is selected, so typing replaces it and keeps ".pdf".
      await expect.poll(() => name.evaluate((input: HTMLInputElement) => [input.selectionStart, input.selectionEnd])).toEqual([0, 9]);
      await dialog.getByText("Leave out the extension and it stays .pdf.").waitFor();
      // A name typed without an extension keeps the old one.
      await name.fill("2024 return");
      await dialog.getByRole("button", { name: "Rename" }).click();
      await page.getByRole("list", { name: "Documents" }).getByText("2024 return.pdf").waitFor();
      const [renamed] = await server.db.selectFrom("documents").select("original_filename").where("account_id", "=", user.id).execute();
      expect(renamed!.original_filename).toBe("2024 return.pdf");

      // Placeholders fit their fields at 390 px: on the dashboard and in the dialogs a phone opens.
      const placeholdersCut = () =>
        page.evaluate(() => {
          const canvas = document.createElement("canvas").getContext("2d")!;
          return [...document.querySelectorAll<HTMLInputElement | HTMLTextAreaElement>("input[placeholder], textarea[placeholder]")]
            .filter((field) => field.offsetParent !== null && field.tagName === "INPUT")
            .filter((field) => {
              const style = getComputedStyle(field);
              canvas.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
              const room = field.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
              return canvas.measureText(field.placeholder).width > room;
            })
            .map((field) => field.placeholder);
        });
      expect(await placeholdersCut()).toEqual([]);
      await page.getByRole("button", { name: "New Folder" }).click();
      expect(await placeholdersCut()).toEqual([]);
      await page.keyboard.press("Escape");
      await page.getByRole("tab", { name: "Appointments" }).click();
      await page.getByRole("button", { name: "Schedule New Appointment" }).click();
      // The free times first when the firm offers any, and from there the request form.
      const askUs = page.getByRole("button", { name: "None of these times work? Ask us" });
      const requestForm = page.getByRole("dialog", { name: "Schedule New Appointment" });
      await askUs.or(requestForm).first().waitFor();
      if (await askUs.isVisible()) await askUs.click();
      await requestForm.getByLabel("Title").waitFor();
      expect(await placeholdersCut()).toEqual([]);
      await page.keyboard.press("Escape");

      // The strength meter's code loads only once a password is typed.
      const strengthCode = () => scripts.filter((url) => /\/password-strength-(?!hint-|meter-)[^/]+\.js$/.test(url));
      await page.goto("/settings");
      const next = page.getByLabel("New password", { exact: true });
      await next.waitFor();
      expect(strengthCode()).toEqual([]);
      const meter = page.getByTestId("password-strength");
      await next.fill("Summer2024");
      await meter.getByText("Strength: Easy to guess").waitFor();
      await meter.getByText(/it will be refused/).waitFor();
      expect(strengthCode().length).toBeGreaterThan(0);
      await next.fill("Copper-Kettle-Evening-7");
      await meter.getByText(/^Strength: (Strong|Very strong)$/).waitFor();
      expect(await meter.innerText()).not.toContain("refused");
      for (const viewport of [viewports.mobile, viewports.desktop]) {
        await page.setViewportSize(viewport);
        await expectAccessible(page);
        expect(await headingOrderSkips(page)).toEqual([]);
        expect(await horizontalOverflow(page)).toBe(0);
        await takeScreenshot(page, "settings-password-strength");
      }
    });
    t.expectNoConsoleErrors();
  });

  it("gives every control a target of at least 44 px on a phone", async ({ login }) => {
    const user = await createUser(server.db);
    const t = await login(user, "client", { viewport: viewports.mobile });
    await folder(user, "Taxes");
    await upload(t, "w2.pdf", 300);
    const { page } = t;
    await page.goto("/dashboard");
    await page.getByRole("list", { name: "Documents" }).waitFor();
    const small = await page.evaluate(() =>
      [...document.querySelectorAll<HTMLElement>("button, a, [role=tab], input:not([type=file]), select")]
        .filter((el) => el.offsetParent !== null && !el.closest(".sr-only"))
        .map((el) => ({ el: el.getAttribute("aria-label") ?? el.textContent?.trim(), height: el.getBoundingClientRect().height }))
        .filter(({ height }) => height < 44),
    );
    expect(small).toEqual([]);
    t.expectNoConsoleErrors();
    await t.close();
  });

  it("shows the portal's outline, not a blank page, while its code loads", async ({ login }) => {
    const user = await createUser(server.db);
    const t = await login(user, "client");
    const { page } = t;
    let release!: () => void;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    await page.route(/\/assets\/dashboard-.*\.js$/, async (route) => {
      await held;
      await route.continue();
    });
    await page.goto("/dashboard", { waitUntil: "commit" });
    const skeleton = page.getByRole("status", { name: "Loading page…" });
    await skeleton.waitFor();
    expect(await skeleton.locator(".animate-pulse, [class*='animate-pulse']").count()).toBeGreaterThan(4);
    await takeScreenshot(page, "portal-skeleton");
    release();
    await page.getByRole("heading", { level: 1 }).waitFor();
    t.expectNoConsoleErrors();
    await t.close();
  });
});

describe("public site from the portal's side", { timeout: 60_000 }, () => {
  it("takes a signed-in admin from the landing page's Dashboard button to the admin dashboard", async ({ login }) => {
    const admin = await createUser(server.db, { is_admin: true });
    const t = await login(admin, "admin");
    await t.context.addInitScript(() => window.localStorage.setItem("hasSeenWelcomeVideo", "true"));
    await t.page.goto("/");
    await t.page.getByRole("button", { name: "Dashboard", exact: true }).click();
    await t.page.waitForURL((url) => url.pathname === "/admin/dashboard");
    await t.close();
  });

  it("gives the 404 page the site's header", async () => {
    for (const viewport of [viewports.mobile, viewports.desktop]) {
      const t = await newPage(browser, { baseURL: server.url, viewport });
      await t.page.goto("/no-such-page");
      await t.page.getByRole("heading", { name: "Page not found" }).waitFor();
      const banner = t.page.getByRole("banner");
      await banner.getByRole("button", { name: "Client Portal" }).waitFor();
      expect(await banner.getByRole("link").first().getAttribute("href")).toBe("/#top");
      expect(await horizontalOverflow(t.page)).toBe(0);
      await expectAccessible(t.page);
      await takeScreenshot(t.page, "not-found");
      await banner.getByRole("button", { name: "Client Portal" }).click();
      await t.page.getByRole("dialog", { name: "Client Portal" }).waitFor();
      expect(new URL(t.page.url()).pathname).toBe("/");
      // The page itself is served with status 404, which the browser logs.
      t.expectNoConsoleErrors({ allow: [/status of 404/] });
      await t.close();
    }
  });
});
