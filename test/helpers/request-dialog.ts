// The firm's "New document request" dialog, filled in as an admin would (browser tests).
import type { Locator, Page } from "playwright-core";

export type RequestFields = { client: string; title: string; due: string; description?: string; folder?: string };

/** Opens the dialog from the Requests tab and fills it in; returns the dialog, not yet sent. */
export async function fillNewRequest(page: Page, fields: RequestFields): Promise<Locator> {
  await page.getByRole("button", { name: "New request" }).click();
  const dialog = page.getByRole("dialog", { name: "New document request" });
  await dialog.getByLabel("Search clients by account name, person or email").fill(fields.client.split(" ")[0]!);
  await dialog.getByRole("radio", { name: new RegExp(fields.client) }).check();
  await dialog.getByLabel("What do you need?").fill(fields.title);
  if (fields.description) await dialog.getByLabel("Details for the client").fill(fields.description);
  await dialog.getByLabel("Due date").fill(fields.due);
  if (fields.folder) {
    const folder = dialog.getByLabel("Folder for the uploads");
    await folder.locator("option", { hasText: fields.folder }).waitFor({ state: "attached" });
    await folder.selectOption({ label: fields.folder });
  }
  return dialog;
}
