/*
 * The client portal in Chromium against the real server and database: folders, breadcrumb and
 * URL state, uploads (picker and drag and drop) with progress, download, delete, appointments,
 * logout, and a second client who sees nothing of the first.
 */
import { createHash } from "node:crypto";
import { readFile } from "node:fs/promises";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  checkA11y,
  formatViolations,
  headingOrderSkips,
  horizontalOverflow,
  newPage,
  openFileChooserByKey,
  releaseBrowser,
  screenshotOnFailure,
  sharedBrowser,
  takeScreenshot,
  type TestPage,
  viewports,
} from "../helpers/browser.ts";
import { ApiClient } from "../helpers/http.ts";
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

type Client = { username: string; name: string; password: string };

type RegisteredClient = Client & { id: string; accountId: string };

async function registerClient(username: string, name: string): Promise<RegisteredClient> {
  const client = { username, name, password: "Quiet-Ledger-Harbor-81" };
  const res = await new ApiClient(server.url).post("/api/auth/register", { ...client, email: `${username}@example.com` });
  expect(res.status, res.text).toBe(200);
  const { id } = await server.db.selectFrom("users").select("id").where("username", "=", username).executeTakeFirstOrThrow();
  // Registration gives the person an account of their own (issue 32), which holds their folders and documents.
  const { account_id: accountId } = await server.db
    .selectFrom("account_contacts")
    .select("account_id")
    .where("user_id", "=", id)
    .executeTakeFirstOrThrow();
  return { ...client, id, accountId };
}

/** Logs in through the API inside the page's context, so the browser holds the session cookie. */
async function logIn(t: TestPage, client: Client): Promise<void> {
  const res = await t.page.request.post("/api/auth/login", {
    data: { username: client.username, password: client.password },
    headers: { Origin: server.url },
  });
  expect(res.status(), await res.text()).toBe(200);
}

const sha256 = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");

function searchParam(page: Page, name: string): string | null {
  return new URL(page.url()).searchParams.get(name);
}

async function expectToast(page: Page, text: string | RegExp): Promise<void> {
  await page.locator("[data-sonner-toast]").filter({ hasText: text }).first().waitFor();
}

async function createFolder(page: Page, name: string, color?: string): Promise<void> {
  await page.getByRole("button", { name: "New Folder" }).click();
  const dialog = page.getByRole("dialog", { name: "New Folder" });
  await dialog.getByLabel("Folder name").fill(name);
  if (color) {
    // The radio itself is visually hidden; people click its swatch, the label around it.
    const swatch = dialog.getByRole("radio", { name: color });
    await swatch.locator("xpath=..").click();
    expect(await swatch.isChecked()).toBe(true);
  }
  await dialog.getByRole("button", { name: "Create Folder" }).click();
  await dialog.waitFor({ state: "detached" });
  await expectToast(page, "Folder created successfully");
  await folderButton(page, name).waitFor();
}

function folderButton(page: Page, name: string) {
  return page.getByRole("list", { name: "Folders" }).getByRole("button", { name, exact: true });
}

async function expectBreadcrumb(page: Page, crumbs: string[]): Promise<void> {
  await expect
    .poll(() => page.getByRole("navigation", { name: "Folder path" }).getByRole("listitem").allInnerTexts(), { timeout: 10_000 })
    .toEqual(crumbs);
}

async function expectAccessibleTabs(page: Page, screenshotName: string): Promise<void> {
  for (const tab of ["Documents", "Messages", "Appointments", "Tax Forms", "Services"]) {
    await page.getByRole("tab", { name: tab }).click();
    await page.getByRole("heading", { level: 2, name: tab }).waitFor();
    const violations = await checkA11y(page);
    expect(violations, `${tab}: ${formatViolations(violations)}`).toEqual([]);
    expect(await horizontalOverflow(page), `${tab} overflows`).toBe(0);
    await takeScreenshot(page, `${screenshotName}-${tab.toLowerCase().replace(" ", "-")}`);
  }
}

describe("client dashboard", () => {
  it("sends a visitor without a session back to the home page, replacing the history entry", async () => {
    const t = await newPage(browser, { baseURL: server.url });
    await t.page.goto("/");
    await t.page.goto("/dashboard");
    await t.page.waitForURL((url) => url.pathname === "/");
    // about:blank, / and the entry of /dashboard, replaced by / (a push would make it 4).
    expect(await t.page.evaluate(() => history.length)).toBe(3);
    t.expectNoConsoleErrors();
    await t.close();
  });

  it("works with the keyboard alone: tabs, New Folder, opening a folder and its menu", async () => {
    const carol = await registerClient("carol_keys", "Carol Ng");
    const t = await newPage(browser, { baseURL: server.url, reducedMotion: "reduce" });
    const { page } = t;
    await logIn(t, carol);
    await screenshotOnFailure(page, "dashboard-keyboard", async () => {
      await page.goto("/dashboard");
      await page.getByRole("tab", { name: "Documents", selected: true }).focus();
      // Radix moves the focus between tabs on the next task, so the test waits for it.
      const focusedTab = () => page.evaluate(() => document.activeElement?.textContent);
      await page.keyboard.press("ArrowRight");
      await expect.poll(focusedTab).toBe("Messages");
      await page.keyboard.press("Enter");
      await page.getByRole("tab", { name: "Messages", selected: true }).waitFor();
      expect(searchParam(page, "tab")).toBe("messages");
      await page.keyboard.press("ArrowLeft");
      await expect.poll(focusedTab).toBe("Documents");
      await page.keyboard.press("Space");
      await page.getByRole("tab", { name: "Documents", selected: true }).waitFor();

      await page.getByRole("button", { name: "New Folder" }).focus();
      await page.keyboard.press("Enter");
      const dialog = page.getByRole("dialog", { name: "New Folder" });
      // Focus starts inside the dialog, on the name field.
      await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe("new-folder-name");
      await page.keyboard.type("Payroll");
      await page.keyboard.press("Tab");
      await page.keyboard.press("ArrowRight");
      expect(await dialog.getByRole("radio", { name: "Red" }).isChecked()).toBe(true);
      await page.keyboard.press("Enter");
      await dialog.waitFor({ state: "detached" });
      await folderButton(page, "Payroll").waitFor();
      const [payroll] = await server.db.selectFrom("folders").select(["name", "color"]).where("account_id", "=", carol.accountId).execute();
      expect(payroll).toEqual({ name: "Payroll", color: "#EF4444" });

      await folderButton(page, "Payroll").focus();
      await page.keyboard.press("Tab");
      await page.keyboard.press("Enter");
      await page.getByRole("menuitem", { name: "Delete Folder" }).waitFor();
      await page.keyboard.press("Escape");
      await page.getByRole("menu").waitFor({ state: "detached" });
      await folderButton(page, "Payroll").focus();
      await page.keyboard.press("Enter");
      await expectBreadcrumb(page, ["Root", "Payroll"]);
    });
    t.expectNoConsoleErrors();
    await t.close();
  }, 60_000);

  it("lets a client organise, upload, download and delete documents, request an appointment and log out", async () => {
    const alice = await registerClient("alice_portal", "Alice Carter");
    const t = await newPage(browser, { baseURL: server.url });
    const { page } = t;
    await logIn(t, alice);

    await screenshotOnFailure(page, "dashboard-flow", async () => {
      await page.goto("/dashboard");
      await page.getByRole("heading", { level: 1, name: "Welcome, Alice Carter!" }).waitFor();
      await expect.poll(() => page.getByRole("banner").innerText()).toContain("Alice Carter");
      await expect.poll(() => page.getByRole("banner").innerText()).toContain("Harborline Accounting");
      expect(await page.getByRole("tab", { name: "Documents", selected: true }).count()).toBe(1);
      await page.getByText("No documents in root folder.").waitFor();
      await expectBreadcrumb(page, ["Root"]);
      const storage = page.getByRole("region", { name: "Storage" });
      await expect.poll(() => storage.innerText()).toContain("0 B of 5 GB");

      // A blank name does nothing: no request, no message, the dialog stays.
      await page.getByRole("button", { name: "New Folder" }).click();
      const dialog = page.getByRole("dialog", { name: "New Folder" });
      await dialog.getByLabel("Folder name").fill("   ");
      await dialog.getByRole("button", { name: "Create Folder" }).click();
      await page.waitForTimeout(300);
      expect(await dialog.isVisible()).toBe(true);
      expect(await page.locator("[data-sonner-toast]").count()).toBe(0);
      await dialog.getByRole("button", { name: "Cancel" }).click();
      await dialog.waitFor({ state: "detached" });

      // Nested folders in two colours.
      await createFolder(page, "Taxes 2024");
      await folderButton(page, "Taxes 2024").click();
      await expectBreadcrumb(page, ["Root", "Taxes 2024"]);
      const taxesId = searchParam(page, "folder");
      expect(taxesId).toMatch(/^[0-9a-f-]{36}$/);
      await page.getByText('No documents in "Taxes 2024" folder.').waitFor();
      await createFolder(page, "Receipts", "Red");
      const receiptsIcon = folderButton(page, "Receipts").locator("svg");
      expect(await receiptsIcon.evaluate((svg) => getComputedStyle(svg).color)).toBe("rgb(239, 68, 68)");
      const folders = await server.db
        .selectFrom("folders")
        .select(["name", "color", "parent_folder_id", "id"])
        .where("account_id", "=", alice.accountId)
        .execute();
      expect(folders.map(({ name, color }) => ({ name, color })).sort((a, b) => a.name.localeCompare(b.name))).toEqual([
        { name: "Receipts", color: "#EF4444" },
        { name: "Taxes 2024", color: "#3B82F6" },
      ]);
      expect(folders.find((f) => f.name === "Receipts")?.parent_folder_id).toBe(taxesId);

      // Breadcrumb: enter, crumb, Back, Root; the browser's Back and a reload keep the place.
      await folderButton(page, "Receipts").click();
      await expectBreadcrumb(page, ["Root", "Taxes 2024", "Receipts"]);
      await page.getByRole("navigation", { name: "Folder path" }).getByRole("button", { name: "Taxes 2024" }).click();
      await expectBreadcrumb(page, ["Root", "Taxes 2024"]);
      await page.getByRole("button", { name: "Back", exact: true }).click();
      await expectBreadcrumb(page, ["Root"]);
      expect(searchParam(page, "folder")).toBeNull();
      await page.goBack();
      await expectBreadcrumb(page, ["Root", "Taxes 2024"]);
      await folderButton(page, "Receipts").click();
      await expectBreadcrumb(page, ["Root", "Taxes 2024", "Receipts"]);
      await page.reload();
      await expectBreadcrumb(page, ["Root", "Taxes 2024", "Receipts"]);
      await page.getByText('No documents in "Receipts" folder.').waitFor();
      await page.getByRole("navigation", { name: "Folder path" }).getByRole("button", { name: "Root" }).click();
      await expectBreadcrumb(page, ["Root"]);

      // A folder shown seconds ago reloads its documents when entered again: one uploaded
      // meanwhile from another session appears (the list is never served from a fresh cache).
      await folderButton(page, "Taxes 2024").click();
      await page.getByText('No documents in "Taxes 2024" folder.').waitFor();
      await page.getByRole("navigation", { name: "Folder path" }).getByRole("button", { name: "Root" }).click();
      const otherSession = new ApiClient(server.url);
      expect((await otherSession.post("/api/auth/login", { username: alice.username, password: alice.password })).status).toBe(200);
      const elsewhere = new FormData();
      elsewhere.append("file", new Blob(["from the phone"], { type: "text/plain" }), "scanned-1099.txt");
      elsewhere.append("folder_id", taxesId!);
      const uploaded = await otherSession.request("POST", "/api/documents/upload", { body: elsewhere });
      expect(uploaded.status, uploaded.text).toBe(201);
      expect((await otherSession.post("/api/auth/logout", {})).status).toBeLessThan(300);
      await folderButton(page, "Taxes 2024").click();
      await page.getByRole("list", { name: "Documents" }).getByRole("listitem").filter({ hasText: "scanned-1099.txt" }).waitFor({ timeout: 5000 });
      await page.getByRole("navigation", { name: "Folder path" }).getByRole("button", { name: "Root" }).click();
      await expectBreadcrumb(page, ["Root"]);

      // Upload by the file picker into the root, with a real progress bar (upload throttled).
      const pickerBytes = new Uint8Array(1536 * 1024).map((_, i) => (i * 31) % 251);
      const cdp = await page.context().newCDPSession(page);
      await cdp.send("Network.enable");
      await cdp.send("Network.emulateNetworkConditions", {
        offline: false,
        latency: 0,
        downloadThroughput: -1,
        uploadThroughput: 512 * 1024,
      });
      await page.getByText("Uploading to the top level").waitFor();
      const chooser = page.waitForEvent("filechooser");
      await page.getByRole("button", { name: "Upload Files" }).click();
      await (await chooser).setFiles({ name: "bank-statement.pdf", mimeType: "application/pdf", buffer: Buffer.from(pickerBytes) });
      const progress = page.getByRole("progressbar", { name: "Upload progress of bank-statement.pdf" });
      await expect
        .poll(async () => Number((await progress.getAttribute("aria-valuenow")) ?? 0), { timeout: 10_000, interval: 50 })
        .toBeGreaterThan(0);
      const midway = Number(await progress.getAttribute("aria-valuenow").catch(() => "100"));
      expect(midway).toBeLessThan(100);
      await expectToast(page, "File uploaded successfully");
      await cdp.send("Network.emulateNetworkConditions", { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });
      const rootRow = page.getByRole("list", { name: "Documents" }).getByRole("listitem").filter({ hasText: "bank-statement.pdf" });
      await rootRow.waitFor();
      expect(await rootRow.innerText()).toContain("1536.0 KB");
      // The usage refreshes after an upload: 1536 KB here and 14 bytes from the other session.
      await expect.poll(() => storage.innerText()).toContain("1.5 MB of 5 GB");

      // Drag and drop into the subfolder Receipts.
      await folderButton(page, "Taxes 2024").click();
      await folderButton(page, "Receipts").click();
      await page.getByText('Uploading to folder "Receipts"').waitFor();
      const droppedBytes = Array.from({ length: 2500 }, (_, i) => (i * 7 + 3) % 256);
      const dataTransfer = await page.evaluateHandle((bytes) => {
        const transfer = new DataTransfer();
        transfer.items.add(new File([new Uint8Array(bytes)], "receipt march.png", { type: "image/png" }));
        return transfer;
      }, droppedBytes);
      const dropZone = page.getByTestId("upload-area");
      await dropZone.dispatchEvent("dragenter", { dataTransfer });
      await dropZone.dispatchEvent("dragover", { dataTransfer });
      await dropZone.dispatchEvent("drop", { dataTransfer });
      await expectToast(page, "File uploaded successfully");
      const row = page.getByRole("list", { name: "Documents" }).getByRole("listitem").filter({ hasText: "receipt march.png" });
      await row.waitFor();
      const today = await page.evaluate(() => new Intl.DateTimeFormat(undefined, { dateStyle: "medium" }).format(new Date()));
      const rowText = await row.innerText();
      expect(rowText).toContain(today);
      expect(rowText).toContain("2.4 KB");
      const stored = await server.db
        .selectFrom("documents")
        .select(["original_filename", "folder_id", "file_size"])
        .where("account_id", "=", alice.accountId)
        .execute();
      const receiptsId = searchParam(page, "folder");
      expect(stored).toContainEqual({ original_filename: "receipt march.png", folder_id: receiptsId, file_size: 2500 });

      // Download: the same bytes.
      const downloadEvent = page.waitForEvent("download");
      await row.getByRole("link", { name: "Download receipt march.png" }).click();
      const download = await downloadEvent;
      expect(download.suggestedFilename()).toBe("receipt march.png");
      const downloaded = await readFile((await download.path())!);
      expect(sha256(downloaded)).toBe(sha256(new Uint8Array(droppedBytes)));

      // The row's Delete button, after the spec's confirmation (Cancel first keeps it), moves it to the trash.
      const deleteFromRow = () => row.getByRole("button", { name: "Delete receipt march.png" }).click();
      await deleteFromRow();
      let confirm = page.getByRole("alertdialog");
      await confirm.getByText("Are you sure you want to delete this document?").waitFor();
      await confirm.getByRole("button", { name: "Cancel" }).click();
      await confirm.waitFor({ state: "detached" });
      expect(await row.count()).toBe(1);
      await deleteFromRow();
      confirm = page.getByRole("alertdialog");
      await confirm.getByRole("button", { name: "Delete" }).click();
      await expectToast(page, "Document deleted successfully");
      await page.getByText('No documents in "Receipts" folder.').waitFor();
      const trashed = await server.db
        .selectFrom("documents")
        .select(["folder_id", "deleted_at"])
        .where("original_filename", "=", "receipt march.png")
        .execute();
      expect(trashed).toEqual([{ folder_id: null, deleted_at: expect.any(Date) }]);

      // A folder that is not empty stays: the confirmation says what it holds and what to do.
      await page.getByRole("navigation", { name: "Folder path" }).getByRole("button", { name: "Root" }).click();
      await page.getByRole("button", { name: "Actions for folder Taxes 2024" }).click();
      await page.getByRole("menuitem", { name: "Delete Folder" }).click();
      const notEmpty = page.getByRole("alertdialog", { name: "This folder is not empty" });
      await notEmpty.getByText('"Taxes 2024" holds 1 document and 1 folder. Delete or move them first, then delete the folder.').waitFor();
      expect(await notEmpty.getByRole("button", { name: "Delete Folder" }).count()).toBe(0);
      await notEmpty.getByRole("button", { name: "Close" }).click();
      await notEmpty.waitFor({ state: "detached" });
      expect(await folderButton(page, "Taxes 2024").count()).toBe(1);

      // Appointments: the request appears in the list.
      await page.getByRole("tab", { name: "Appointments" }).click();
      expect(searchParam(page, "tab")).toBe("appointments");
      await page.getByText("No appointments scheduled").waitFor();
      await page.getByRole("button", { name: "Schedule New Appointment" }).click();
      const request = page.getByRole("dialog", { name: "Schedule New Appointment" });
      await request.getByRole("button", { name: "Request Appointment" }).click();
      await request.getByRole("alert").filter({ hasText: "Please fill in all fields" }).waitFor();
      await request.getByLabel("Title").fill("Quarterly tax review");
      const nextWeek = await page.evaluate(() => {
        const date = new Date(Date.now() + 7 * 24 * 3600 * 1000);
        return `${date.getFullYear()}-${String(date.getMonth() + 1).padStart(2, "0")}-${String(date.getDate()).padStart(2, "0")}`;
      });
      await request.getByLabel("Preferred date").fill(nextWeek);
      await request.getByLabel("Preferred time").selectOption("afternoon");
      await request.getByLabel("Notes").fill("Bring last year's return.");
      await request.getByRole("button", { name: "Request Appointment" }).click();
      await request.waitFor({ state: "detached" });
      // The dialog opens from state, not a Radix trigger; focus still returns to its button.
      await page.waitForFunction(() => document.activeElement?.textContent?.trim() === "Schedule New Appointment", undefined, { timeout: 2000 });
      const appointment = page.getByRole("listitem").filter({ hasText: "Quarterly tax review" });
      await appointment.waitFor();
      const appointmentText = await appointment.innerText();
      expect(appointmentText).toContain("Requested");
      expect(appointmentText).toContain("Afternoon (12 PM-5 PM)");
      expect(appointmentText).toContain("Bring last year's return.");

      // The tab survives a reload; every tab passes axe and fits at desktop width.
      await page.reload();
      await page.getByRole("tab", { name: "Appointments", selected: true }).waitFor();
      await expectAccessibleTabs(page, "dashboard");

      // Logout ends the session on the server, then /dashboard sends the visitor away.
      // The specification's top bar: the user's name and a Logout button beside it.
      await page.getByRole("banner").getByRole("button", { name: "Alice Carter" }).waitFor();
      await page.getByRole("banner").getByRole("button", { name: "Logout" }).click();
      await expectToast(page, "Logged out successfully.");
      await page.waitForURL((url) => url.pathname === "/");
      expect(await server.db.selectFrom("sessions").select("id").where("user_id", "=", alice.id).execute()).toEqual([]);
      await page.goto("/dashboard?tab=documents");
      await page.waitForURL((url) => url.pathname === "/");
    });
    t.expectNoConsoleErrors();
    await t.close();

    // A second client sees nothing of Alice's, even with her folder's id in the URL.
    const bob = await registerClient("bob_portal", "Bob Diaz");
    const other = await newPage(browser, { baseURL: server.url, viewport: viewports.mobile });
    await logIn(other, bob);
    await screenshotOnFailure(other.page, "dashboard-second-client", async () => {
      const [aliceFolder] = await server.db
        .selectFrom("folders")
        .select("id")
        .where("account_id", "=", alice.accountId)
        .where("name", "=", "Taxes 2024")
        .execute();
      const [aliceDocument] = await server.db.selectFrom("documents").select("id").where("account_id", "=", alice.accountId).execute();
      await other.page.goto(`/dashboard?tab=documents&folder=${aliceFolder!.id}`);
      await other.page.getByRole("heading", { level: 1, name: "Welcome, Bob Diaz!" }).waitFor();
      await other.page.getByText("No documents in root folder.").waitFor();
      await expect.poll(() => searchParam(other.page, "folder")).toBeNull();
      expect(await other.page.getByRole("list", { name: "Folders" }).count()).toBe(0);
      expect(await other.page.getByText("Taxes 2024").count()).toBe(0);
      expect((await other.page.request.get(`/api/documents/${aliceDocument!.id}/download`)).status()).toBe(404);
      await other.page.getByRole("tab", { name: "Appointments" }).click();
      await other.page.getByText("No appointments scheduled").waitFor();

      await other.page.getByRole("tab", { name: "Documents" }).click();
      await createFolder(other.page, "Bob's papers", "Green");
      await expectAccessibleTabs(other.page, "dashboard");
    });
    other.expectNoConsoleErrors();
    await other.close();
  }, 120_000);

  it("on a phone: tabs that show they scroll, a submitted request folded away with focus kept, one way to an appointment, Welcome then Welcome back", async () => {
    const dana = await registerClient("dana_phone", "Dana Okafor");
    const request = await server.db
      .insertInto("document_requests")
      .values({ account_id: dana.accountId, title: "2024 W-2 from each employer", created_by: null })
      .returning("id")
      .executeTakeFirstOrThrow();
    const type = await server.db
      .insertInto("meeting_types")
      .values({
        name: "Tax review",
        duration_minutes: 60,
        buffer_minutes: 0,
        location: "video",
        location_detail: "",
        requires_approval: false,
        created_at: new Date(),
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    const t = await newPage(browser, { baseURL: server.url, viewport: viewports.mobile, reducedMotion: "reduce" });
    const { page } = t;
    await logIn(t, dana);
    try {
      await screenshotOnFailure(page, "dashboard-phone", async () => {
        await page.goto("/dashboard");
        // The first sign-in says Welcome.
        await page.getByRole("heading", { level: 1, name: "Welcome, Dana Okafor!" }).waitFor();

        // The tab row is cut at 390 px and says so: a fade and an arrow on the side with more tabs.
        const tabs = page.getByRole("tablist", { name: "Dashboard sections" });
        const row = tabs.locator("xpath=..");
        await expect.poll(() => row.getAttribute("data-more-after")).toBe("true");
        expect(await row.getAttribute("data-more-before")).toBeNull();
        const inView = (name: string) =>
          page.getByRole("tab", { name }).evaluate((tab) => {
            const list = tab.parentElement!.getBoundingClientRect();
            const box = tab.getBoundingClientRect();
            return box.left >= list.left - 1 && box.right <= list.right + 1;
          });
        expect(await inView("Services")).toBe(false);
        await takeScreenshot(page, "dashboard-phone-tabs");
        // The keyboard walks the tablist; the focused tab scrolls into view.
        await page.getByRole("tab", { name: "Documents", selected: true }).focus();
        // Radix moves the focus between tabs on the next task, so each step waits for it.
        for (const next of ["Messages", "Appointments", "Tax Forms", "Services"]) {
          await page.keyboard.press("ArrowRight");
          await expect.poll(() => page.evaluate(() => document.activeElement?.textContent)).toBe(next);
        }
        await page.keyboard.press("Enter");
        await page.getByRole("heading", { level: 2, name: "Services" }).waitFor();
        await expect.poll(() => inView("Services")).toBe(true);
        await expect.poll(() => row.getAttribute("data-more-before")).toBe("true");
        // A link straight to a tab at the end shows that tab selected and in view.
        await page.goto("/dashboard?tab=tax-forms");
        await page.getByRole("heading", { level: 2, name: "Tax Forms" }).waitFor();
        await expect.poll(() => inView("Tax Forms")).toBe(true);

        // Upload from the request's card: focus stays in the request, then Mark submitted folds the
        // card into one line, which takes the focus and tells the result.
        await page.goto("/dashboard");
        const card = page.getByRole("region", { name: "Requests from your firm" });
        const item = card.getByRole("listitem", { name: "2024 W-2 from each employer" });
        const chooser = await openFileChooserByKey(page, item.getByRole("button", { name: "Upload" }));
        await chooser.setFiles({ name: "w2-acme.pdf", mimeType: "application/pdf", buffer: Buffer.from("%PDF-1.4 w2") });
        await item.getByRole("list", { name: "Documents for 2024 W-2 from each employer" }).getByText("w2-acme.pdf").waitFor();
        const focusInRequest = () => page.evaluate(() => Boolean(document.activeElement?.closest('[aria-label="2024 W-2 from each employer"]')));
        await expect.poll(focusInRequest).toBe(true);
        await item.getByRole("button", { name: "Mark submitted" }).focus();
        await page.keyboard.press("Enter");
        const fold = page.getByRole("button", { name: /^Requests from your firm/ });
        await fold.waitFor();
        expect(await fold.innerText()).toContain("1 submitted, waiting for your firm");
        expect(await fold.getAttribute("aria-expanded")).toBe("false");
        await expect.poll(() => page.evaluate(() => document.activeElement?.textContent ?? "")).toContain("Requests from your firm");
        expect(await card.count()).toBe(0);
        const { status } = await server.db.selectFrom("document_requests").select("status").where("id", "=", request.id).executeTakeFirstOrThrow();
        expect(status).toBe("submitted");
        const foldTop = await fold.evaluate((el) => el.getBoundingClientRect().height);
        expect(foldTop).toBeLessThan(100);
        await takeScreenshot(page, "dashboard-phone-folded");
        await page.keyboard.press("Enter");
        await card.getByText("Submitted · waiting for your firm").waitFor();
        expect(await fold.getAttribute("aria-expanded")).toBe("true");
        await fold.click();
        await card.waitFor({ state: "detached" });

        // One way to an appointment: the free times first, then "Ask us" for the request form.
        await page.getByRole("tab", { name: "Appointments" }).click();
        const appointments = page.getByRole("tabpanel", { name: "Appointments" });
        // The tab's code loads on first use: its buttons are counted once it is there.
        await appointments.getByRole("button", { name: "Schedule New Appointment" }).waitFor();
        expect(
          await appointments
            .getByRole("button")
            .filter({ hasText: /appointment/i })
            .allInnerTexts(),
        ).toEqual(["Schedule New Appointment"]);
        await appointments.getByRole("button", { name: "Schedule New Appointment" }).click();
        const booking = page.getByRole("dialog", { name: "Book an appointment" });
        await booking.getByRole("radio", { name: /Tax review/ }).waitFor();
        await booking.getByRole("button", { name: "None of these times work? Ask us" }).click();
        const ask = page.getByRole("dialog", { name: "Schedule New Appointment" });
        await ask.getByLabel("Title").waitFor();
        await booking.waitFor({ state: "detached" });
        expect(await horizontalOverflow(page)).toBe(0);
        await takeScreenshot(page, "dashboard-phone-ask-us");
        await ask.getByRole("button", { name: "Cancel" }).click();
        await ask.waitFor({ state: "detached" });
        await expect.poll(() => page.evaluate(() => document.activeElement?.textContent?.trim())).toBe("Schedule New Appointment");

        for (const viewport of [viewports.mobile, viewports.desktop]) {
          await page.setViewportSize(viewport);
          await page.getByRole("tab", { name: "Documents" }).click();
          await fold.waitFor();
          const violations = await checkA11y(page);
          expect(violations, formatViolations(violations)).toEqual([]);
          expect(await headingOrderSkips(page)).toEqual([]);
          expect(await horizontalOverflow(page)).toBe(0);
          await takeScreenshot(page, "dashboard-phone-requests");
        }
        // At 1280 px the five tabs fit: no fade, no arrow.
        await expect.poll(() => row.getAttribute("data-more-after")).toBeNull();

        // The next sign-in says Welcome back.
        await logIn(t, dana);
        await page.reload();
        await page.getByRole("heading", { level: 1, name: "Welcome back, Dana Okafor!" }).waitFor();
      });
      t.expectNoConsoleErrors();
    } finally {
      await server.db.updateTable("meeting_types").set({ deleted_at: new Date() }).where("id", "=", type.id).execute();
      await t.close();
    }
  }, 90_000);
});
