/*
 * Private folders in Chromium (issue 48, item 8; docs/decisions.md, "Private folders"): a business
 * owner, on her phone, makes a folder only she and the firm see, and the dialog and the folder say
 * so; her bookkeeper, at his desk, sees neither the folder nor the file she keeps in it. Axe at 1280
 * and 390 px on each view.
 */
import { expect } from "vitest";
import { browserTestFile } from "../helpers/browser-test.ts";
import { expectAccessibleAtBothWidths, screenshotOnFailure, viewports } from "../helpers/browser.ts";
import { createUser, loginClient, makeHousehold, type UserFixture } from "../helpers/factories.ts";
import type { TestServer } from "../helpers/server.ts";

const SECRET_FILE = "owner-draw-2026.txt";

let server: TestServer;
let owner: UserFixture;
let bookkeeper: UserFixture;

const it = browserTestFile({
  setUp: async (started) => {
    server = started;
    owner = await createUser(server.db, { name: "Dana Owner" });
    bookkeeper = await createUser(server.db, { name: "Bo Keeper" });
    await makeHousehold(server.db, { owner, member: bookkeeper, name: "Owner Bakery LLC", verifiedAt: new Date() });
  },
});

it("the owner makes a folder only she and the firm see, and the page says so", async ({ login }) => {
  const { page } = await login(owner, "client", { viewport: viewports.mobile, reducedMotion: "reduce" });
  await screenshotOnFailure(page, "private-folder-owner", async () => {
    await page.goto("/dashboard");
    await page.getByRole("button", { name: "New Folder" }).click();
    const dialog = page.getByRole("dialog", { name: "New Folder" });
    await dialog.getByText("Everyone on your account and your firm see this folder", { exact: false }).waitFor();
    await dialog.getByLabel("Folder name").fill("Owner only");
    await dialog.getByLabel("Only me and the firm").check();
    await dialog.getByText("Only you and your firm see this folder and what is in it.", { exact: false }).waitFor();
    await expectAccessibleAtBothWidths(page, "private-folder-dialog", ['[role="dialog"]']);
    await dialog.getByRole("button", { name: "Create Folder" }).click();
    await dialog.waitFor({ state: "detached" });
    await page
      .getByRole("button", { name: /Owner only/ })
      .getByText("Only you and your firm")
      .waitFor();
    await expectAccessibleAtBothWidths(page, "private-folder-owner");
  });
  const folder = await server.db
    .selectFrom("folders")
    .select(["id", "is_private", "private_to"])
    .where("name", "=", "Owner only")
    .executeTakeFirstOrThrow();
  expect(folder).toMatchObject({ is_private: true, private_to: owner.id });
  const api = await loginClient(server.url, owner);
  const form = new FormData();
  form.append("folder_id", folder.id);
  form.append("file", new Blob(["the owner's draw"], { type: "text/plain" }), SECRET_FILE);
  expect((await api.request("POST", "/api/documents/upload", { body: form })).status).toBe(201);
});

it("the bookkeeper sees neither the folder nor what is in it", async ({ login }) => {
  const { page } = await login(bookkeeper, "client", { viewport: viewports.desktop, reducedMotion: "reduce" });
  await screenshotOnFailure(page, "private-folder-bookkeeper", async () => {
    await page.goto("/dashboard");
    await page.getByText("No documents in root folder.").waitFor();
    await page.getByRole("searchbox").first().fill("owner");
    await page.getByText('No documents match "owner".').waitFor();
    const body = (await page.textContent("body")) ?? "";
    expect(body).not.toContain("Owner only");
    expect(body).not.toContain(SECRET_FILE);
    await expectAccessibleAtBothWidths(page, "private-folder-bookkeeper");
  });
});
