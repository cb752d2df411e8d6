/*
 * Issue 32, for the firm, in Chromium: the Clients tab creates a household account with its first
 * person, the account's page invites the spouse (both listed as invited, with the real email
 * sent), and the Import CSV dialog previews a file's accounts and refused rows without making
 * anything. Issue 34: the account's page is the client's record, walked section by section
 * (rename, documents, messages, requests, appointments, activity, private notes). Each view passes
 * axe at 1280 and 390 px, without sideways scrolling.
 */
import { randomBytes } from "node:crypto";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signedInPage } from "../helpers/admin-sign-in.ts";
import { expectAccessibleAtBothWidths, releaseBrowser, screenshotOnFailure, sharedBrowser, type TestPage } from "../helpers/browser.ts";
import { createUser } from "../helpers/factories.ts";
import { seedObjects } from "../security/helpers.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import { startSmtpServer, type TestSmtpServer } from "../helpers/smtp.ts";

let server: TestServer;
let smtp: TestSmtpServer;
let browser: Browser;
let admin: TestPage;
const tag = randomBytes(3).toString("hex");
const maria = `maria.${tag}@example.com`;
const james = `james.${tag}@example.com`;

beforeAll(async () => {
  smtp = await startSmtpServer();
  server = await startTestServer({ env: { SMTP_URL: smtp.url } });
  browser = await sharedBrowser();
  admin = await signedInPage(browser, server.url, await createUser(server.db, { is_admin: true, name: "Dana Whitfield" }), "admin");
}, 120_000);

afterAll(async () => {
  await admin?.close();
  await releaseBrowser(browser);
  await server?.close();
  await smtp?.stop();
});

const toast = (text: string) => admin.page.locator("[data-sonner-toast]", { hasText: text }).first();

describe("the Clients tab", () => {
  it("creates a household account with its first person and opens its page", async () => {
    const { page } = admin;
    await screenshotOnFailure(page, "admin-accounts-create", async () => {
      await page.goto("/admin/dashboard?tab=users");
      await page.getByRole("tab", { name: "Clients", selected: true }).waitFor();
      await page.getByRole("button", { name: "New client account" }).click();
      const dialog = page.getByRole("dialog", { name: "New client account" });
      await dialog.getByLabel("Account name").fill("Garcia Household");
      await dialog.getByLabel("Kind").selectOption("household");
      await dialog.getByLabel("Full Name").fill("Maria Garcia");
      await dialog.getByLabel("Email").fill(maria);
      await expectAccessibleAtBothWidths(page, "admin-accounts-new-dialog", ["[role=dialog]"]);
      await dialog.getByRole("button", { name: "Create account" }).click();
      await toast(`Garcia Household was created and ${maria} was invited.`).waitFor();
      await page.waitForURL("**/admin/accounts/*");
      await page.getByRole("heading", { level: 1, name: "Garcia Household" }).waitFor();
      const people = page.getByRole("list", { name: "People of Garcia Household" });
      await people.getByRole("listitem", { name: "Maria Garcia" }).getByText("Invited").waitFor();
      await smtp.waitForMail(maria, /invitation/i, 30_000);
    });
  });

  it("invites the spouse from the account's page", async () => {
    const { page } = admin;
    await screenshotOnFailure(page, "admin-accounts-invite", async () => {
      await page.getByRole("button", { name: "Invite a person" }).click();
      const dialog = page.getByRole("dialog", { name: "Invite a person to Garcia Household" });
      await dialog.getByLabel("Full Name").fill("James Garcia");
      await dialog.getByLabel("Email").fill(james);
      await dialog.getByRole("button", { name: "Invite" }).click();
      await toast(`${james} was added to Garcia Household.`).waitFor();
      const people = page.getByRole("list", { name: "People of Garcia Household" });
      await people.getByRole("listitem", { name: "James Garcia" }).getByText("Invited").waitFor();
      await page.getByRole("tab", { name: "Documents" }).waitFor();
      await expectAccessibleAtBothWidths(page, "admin-account-page");
      await smtp.waitForMail(james, /invitation/i, 30_000);
      const account = await server.db.selectFrom("accounts").select("id").where("name", "=", "Garcia Household").executeTakeFirstOrThrow();
      const invited = await server.db
        .selectFrom("invitations")
        .select(["email", "role"])
        .where("account_id", "=", account.id)
        .orderBy("created_at")
        .execute();
      expect(invited).toEqual([
        { email: maria, role: "owner" },
        { email: james, role: "member" },
      ]);
    });
  });

  it("adds an existing client at once, whose role, portal access and emails the firm then changes", async () => {
    const { page } = admin;
    await screenshotOnFailure(page, "admin-accounts-joined", async () => {
      const ana = await createUser(server.db, { name: "Ana Garcia", email: `ana.${tag}@example.com` });
      await server.db.updateTable("users").set({ email_verified_at: new Date() }).where("id", "=", ana.id).execute();
      await page.getByRole("button", { name: "Invite a person" }).click();
      const dialog = page.getByRole("dialog", { name: "Invite a person to Garcia Household" });
      await dialog.getByLabel("Full Name").fill("Ana Garcia");
      await dialog.getByLabel("Email").fill(ana.email);
      await dialog.getByRole("button", { name: "Invite" }).click();
      const row = page.getByRole("list", { name: "People of Garcia Household" }).getByRole("listitem", { name: "Ana Garcia" });
      await row.getByLabel("Role of Ana Garcia", { exact: true }).waitFor();
      expect(await row.getByLabel("Role of Ana Garcia", { exact: true }).inputValue()).toBe("member");
      // The boxes show what the server saved, so each turns off once its change is stored.
      await row.getByLabel("Emails").click();
      await expect.poll(() => row.getByLabel("Emails").isChecked()).toBe(false);
      await row.getByLabel("Portal access").click();
      await row.getByText("No portal access").waitFor();
      const contact = () =>
        server.db
          .selectFrom("account_contacts")
          .select(["portal_access", "notify"])
          .where("user_id", "=", ana.id)
          .where("role", "=", "member")
          .executeTakeFirst();
      await expect.poll(contact).toEqual({ portal_access: false, notify: false });
      await expectAccessibleAtBothWidths(page, "admin-account-people");
    });
  });

  it("lists the account with its people, and previews a CSV import with its refused rows", async () => {
    const { page } = admin;
    await screenshotOnFailure(page, "admin-accounts-import", async () => {
      await page.goto("/admin/dashboard?tab=users");
      await page.getByLabel("Search clients by account, name or email").fill(james);
      const table = page.getByRole("table", { name: "Client accounts" });
      await table.getByRole("link", { name: "Garcia Household" }).waitFor();
      await expectAccessibleAtBothWidths(page, "admin-clients-tab");

      const before = await server.db
        .selectFrom("accounts")
        .select((eb) => eb.fn.countAll<string>().as("n"))
        .executeTakeFirstOrThrow();
      await page.getByRole("button", { name: "Import CSV" }).click();
      const dialog = page.getByRole("dialog", { name: "Import client accounts" });
      const csv = [
        "Account name,Kind,Person name,Email",
        `Lee Bakery ${tag},business,Ana Lee,ana.${tag}@example.com`,
        `Lee Bakery ${tag},business,Bo Lee,bo.${tag}@example.com`,
        `Park ${tag},family,Eva Park,eva.${tag}@example.com`,
      ].join("\n");
      await dialog.getByLabel("CSV file").setInputFiles({ name: "clients.csv", mimeType: "text/csv", buffer: Buffer.from(csv) });
      await dialog.getByRole("heading", { name: "1 account, 2 people" }).waitFor();
      await dialog.getByRole("list", { name: "Accounts to import" }).getByText(`Lee Bakery ${tag}`).waitFor();
      await dialog.getByRole("list", { name: "Refused rows" }).getByText("Line 4: kind must be individual, household or business").waitFor();
      await dialog.getByRole("button", { name: "Import 1 account" }).waitFor();
      await expectAccessibleAtBothWidths(page, "admin-accounts-import-preview", ["[role=dialog]"]);
      // The preview made nothing.
      const after = await server.db
        .selectFrom("accounts")
        .select((eb) => eb.fn.countAll<string>().as("n"))
        .executeTakeFirstOrThrow();
      expect(after.n).toBe(before.n);
    });
  });

  it("walks a client's record: rename, documents, a new folder, messages, requests, appointments, activity and private notes", async () => {
    const { page } = admin;
    await screenshotOnFailure(page, "admin-client-record", async () => {
      const ruth = await createUser(server.db, { name: "Ruth Record", email: `ruth.${tag}@example.com` });
      await server.db.updateTable("users").set({ email_verified_at: new Date() }).where("id", "=", ruth.id).execute();
      const seeded = await seedObjects(server.db, server.deps.storage, ruth.id);
      // The seeded document is a letter the firm shared (by mistake, as it turns out), readable in the viewer.
      const firm = await server.db.selectFrom("users").select("id").where("name", "=", "Dana Whitfield").executeTakeFirstOrThrow();
      await server.db
        .updateTable("documents")
        .set({ uploaded_by: firm.id, original_filename: "engagement-letter.txt", content_type: "text/plain" })
        .where("id", "=", seeded.documentId)
        .execute();
      const folder = await server.db.selectFrom("folders").select("name").where("id", "=", seeded.folderId).executeTakeFirstOrThrow();

      await page.goto(`/admin/accounts/${ruth.id}`);
      await page.getByRole("heading", { level: 1 }).waitFor();
      await page.getByRole("button", { name: "Edit name and kind" }).click();
      const edit = page.getByRole("dialog", { name: "Edit client account" });
      await edit.getByLabel("Account name").fill("Record Household");
      await edit.getByLabel("Kind").selectOption("household");
      await edit.getByRole("button", { name: "Save" }).click();
      await page.getByRole("heading", { level: 1, name: "Record Household" }).waitFor();
      await page.getByText("Household", { exact: true }).waitFor();

      // Documents: open the folder, preview the letter, pull it back.
      await page.getByRole("tab", { name: "Documents" }).click();
      await page.getByRole("button", { name: folder.name }).click();
      await page.getByRole("button", { name: "engagement-letter.txt", exact: true }).click();
      const viewer = page.getByRole("dialog", { name: /engagement-letter\.txt/ });
      await viewer.getByText("w-2").waitFor();
      await page.keyboard.press("Escape");
      await viewer.waitFor({ state: "hidden" });
      await expectAccessibleAtBothWidths(page, "admin-record-documents");
      await page.getByRole("button", { name: "Pull back engagement-letter.txt" }).click();
      await page.getByRole("alertdialog", { name: "Pull back this document?" }).getByRole("button", { name: "Pull back" }).click();
      await toast("Document pulled back").waitFor();
      await page.getByText(`No documents in "${folder.name}" folder.`).waitFor();
      const pulled = await server.db.selectFrom("documents").select("deleted_at").where("id", "=", seeded.documentId).executeTakeFirstOrThrow();
      expect(pulled.deleted_at).not.toBeNull();
      // A folder for what the firm will share, inside the one shown.
      await page.getByRole("button", { name: "New Folder" }).click();
      const newFolder = page.getByRole("dialog", { name: "New folder for Record Household" });
      await newFolder.getByLabel("Folder name").fill("2025 Return");
      await newFolder.getByRole("button", { name: "Create Folder" }).click();
      await page.getByRole("list", { name: "Folders" }).getByRole("button", { name: "2025 Return" }).waitFor();
      const made = await server.db.selectFrom("folders").select(["account_id", "parent_folder_id"]).where("name", "=", "2025 Return").execute();
      expect(made).toEqual([{ account_id: ruth.id, parent_folder_id: seeded.folderId }]);

      // Messages: the firm starts the conversation from the record.
      await page.getByRole("tab", { name: "Messages" }).click();
      await page.getByRole("heading", { level: 2, name: "Messages" }).waitFor();
      await page.getByLabel("Message", { exact: true }).fill("Your 2025 return is ready to review.");
      await page.getByRole("button", { name: "Send", exact: true }).click();
      await page.getByText("Your 2025 return is ready to review.").first().waitFor();
      await expect
        .poll(async () => (await server.db.selectFrom("messages").select("text").where("account_id", "=", ruth.id).execute()).map((m) => m.text))
        .toEqual(["Your 2025 return is ready to review."]);
      await expectAccessibleAtBothWidths(page, "admin-record-messages");

      // Requests: the seeded one, and a new one asked for this client without picking them.
      await page.getByRole("tab", { name: "Requests" }).click();
      const requests = page.getByRole("table", { name: "Document requests" });
      await requests.getByText("W-2 forms").waitFor();
      await page.getByRole("button", { name: "New request" }).click();
      const ask = page.getByRole("dialog", { name: "New document request" });
      await ask.getByText("Record Household").waitFor();
      await ask.getByLabel("What do you need?").fill("Property tax bill");
      await ask.getByRole("button", { name: "Send request" }).click();
      await requests.getByText("Property tax bill").waitFor();
      await expectAccessibleAtBothWidths(page, "admin-record-requests");

      // Appointments: the seeded one (now past), its time with the zone named.
      await page.getByRole("tab", { name: "Appointments" }).click();
      const past = page.getByRole("list", { name: "Past appointments" });
      await past.getByText("Review").waitFor();
      expect(await past.locator("time").first().textContent()).toMatch(/\d{1,2}:\d{2}\s?[AP]M \S+$/);
      await page.getByText("No upcoming appointments.").waitFor();
      await expectAccessibleAtBothWidths(page, "admin-record-appointments");

      // Activity: the account's trail, the rename among it.
      await page.getByRole("tab", { name: "Activity" }).click();
      await page.getByText("changed the client account Record Household").first().waitFor();
      await expectAccessibleAtBothWidths(page, "admin-record-activity");

      // Private notes: add one, then change it.
      await page.getByRole("tab", { name: "Notes" }).click();
      await page.getByLabel("New note").fill("Prefers calls after 3 pm.");
      await page.getByRole("button", { name: "Add note" }).click();
      const notes = page.getByRole("list", { name: "Notes" });
      await notes.getByText("Prefers calls after 3 pm.").waitFor();
      await notes.getByRole("button", { name: /^Edit/ }).click();
      await notes.getByLabel("Edit note").fill("Prefers calls after 4 pm.");
      await notes.getByRole("button", { name: "Save note" }).click();
      await notes.getByText("Prefers calls after 4 pm.").waitFor();
      await notes.getByText(/edited/).waitFor();
      expect(page.url()).toContain("section=notes");
      await expectAccessibleAtBothWidths(page, "admin-record-notes");
      const stored = await server.db.selectFrom("account_notes").select("body").where("account_id", "=", ruth.id).execute();
      expect(stored).toEqual([{ body: "Prefers calls after 4 pm." }]);
    });
  }, 150_000);

  // Issue 47, item 3 (docs/security.md, Round 4): an account a claimed login left is marked for the
  // firm: a badge in Clients, a notice on the record naming the address, and Mark Reviewed.
  it("marks an account a claimed login left, until the firm marks it reviewed", async () => {
    const { page } = admin;
    const claimed = await createUser(server.db, { email: `claimed.${tag}@example.com` });
    const left = await createUser(server.db, { username: `left_${tag}` });
    await server.db.deleteFrom("account_contacts").where("account_id", "=", left.id).execute();
    await server.db
      .updateTable("accounts")
      .set({ name: `Left Behind ${tag}`, claim_review_at: new Date(), claim_review_user_id: claimed.id })
      .where("id", "=", left.id)
      .execute();
    await screenshotOnFailure(page, "admin-accounts-claim-review", async () => {
      await page.goto(`/admin/dashboard?tab=users`);
      await page.getByLabel("Search clients by account, name or email").fill(`Left Behind ${tag}`);
      const row = page.getByRole("row").filter({ hasText: `Left Behind ${tag}` });
      await row.getByText("Needs review").waitFor();
      await row.getByRole("link", { name: `Left Behind ${tag}` }).click();
      const notice = page.getByRole("region", { name: "Needs review: a claimed login left this account" });
      await notice.getByText(`the owner of claimed.${tag}@example.com proved the address`, { exact: false }).waitFor();
      await expectAccessibleAtBothWidths(page, "admin-record-claim-review");
      await notice.getByRole("button", { name: "Mark Reviewed" }).click();
      await toast(`Left Behind ${tag} is marked reviewed.`).waitFor();
      await notice.waitFor({ state: "detached" });
      const row2 = await server.db
        .selectFrom("accounts")
        .select(["claim_review_at", "claim_review_user_id"])
        .where("id", "=", left.id)
        .executeTakeFirstOrThrow();
      expect(row2).toEqual({ claim_review_at: null, claim_review_user_id: null });
    });
  }, 120_000);
});
