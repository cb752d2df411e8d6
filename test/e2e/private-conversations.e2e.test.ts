/*
 * Private conversations in Chromium (issue 48, item 8): a business owner and her bookkeeper share
 * one account. The Messages tab says who reads the account's conversation, by name; the owner, on
 * her phone, starts a conversation only she and the firm read, and the page says so; the firm sees
 * it apart, marked whose it is, and answers; the bookkeeper sees none of it, in either conversation.
 * Axe at 1280 and 390 px on each view.
 */
import { expect } from "vitest";
import { browserTestFile } from "../helpers/browser-test.ts";
import { expectAccessibleAtBothWidths, screenshotOnFailure, viewports } from "../helpers/browser.ts";
import { createUser, makeHousehold, type UserFixture } from "../helpers/factories.ts";
import type { TestServer } from "../helpers/server.ts";

const PRIVATE_TEXT = "Before the bookkeeper sees the payroll: can we talk about my own draw?";
const FIRM_ANSWER = "Of course, this stays between us.";

let server: TestServer;
let owner: UserFixture;
let bookkeeper: UserFixture;
let firmUser: UserFixture;

const it = browserTestFile({
  setUp: async (started) => {
    server = started;
    owner = await createUser(server.db, { name: "Dana Owner" });
    bookkeeper = await createUser(server.db, { name: "Bo Keeper" });
    await makeHousehold(server.db, { owner, member: bookkeeper, name: "Owner Bakery LLC", verifiedAt: new Date() });
    firmUser = await createUser(server.db, { is_admin: true, name: "Office Admin" });
  },
});

it("the owner starts a conversation only she and the firm read, and the page says who reads each", async ({ login }) => {
  const { page } = await login(owner, "client", { viewport: viewports.mobile, reducedMotion: "reduce" });
  await screenshotOnFailure(page, "private-conversation-owner", async () => {
    await page.goto("/dashboard?tab=messages");
    const readers = page.getByTestId("conversation-readers");
    await readers.getByText("Read by you, Bo Keeper (everyone on your account) and your firm.", { exact: false }).waitFor();
    await page.getByRole("button", { name: "Only me and the firm" }).click();
    expect(await page.getByRole("button", { name: "Only me and the firm" }).getAttribute("aria-pressed")).toBe("true");
    await readers.getByText("Only you and your firm read this conversation", { exact: false }).waitFor();
    // Nothing to attach here: a document would be filed in folders the bookkeeper opens.
    expect(await page.getByRole("button", { name: "Upload files" }).count()).toBe(0);
    await page.getByLabel("Message", { exact: true }).fill(PRIVATE_TEXT);
    await page.getByRole("button", { name: "Send" }).click();
    await page.getByRole("log", { name: "Messages" }).getByText(PRIVATE_TEXT).waitFor();
    await expectAccessibleAtBothWidths(page, "private-conversation-owner");
    await page.getByRole("button", { name: "Everyone on the account" }).click();
    await page.getByRole("log", { name: "Messages" }).getByText("No messages yet.").waitFor();
  });
});

it("the firm sees it apart, marked whose it is, and answers in it", async ({ login }) => {
  const { page } = await login(firmUser, "admin", { reducedMotion: "reduce" });
  await screenshotOnFailure(page, "private-conversation-firm", async () => {
    await page.goto("/admin/dashboard?tab=messages");
    const item = page.getByRole("list", { name: "Conversations" }).getByRole("button", { name: /Private: only Dana Owner and the firm/ });
    await item.click();
    await page.getByRole("log", { name: "Messages" }).getByText(PRIVATE_TEXT).waitFor();
    await page.getByText("Private: only Dana Owner and the firm").nth(1).waitFor();
    expect(await page.getByRole("button", { name: "Upload files" }).count()).toBe(0);
    await page.getByLabel("Message", { exact: true }).fill(FIRM_ANSWER);
    await page.getByRole("button", { name: "Send" }).click();
    await page.getByRole("log", { name: "Messages" }).getByText(FIRM_ANSWER).waitFor();
    await expectAccessibleAtBothWidths(page, "private-conversation-firm");
  });
});

it("the bookkeeper reads none of it, in the account's conversation or a private one of his own", async ({ login }) => {
  const { page } = await login(bookkeeper, "client", { reducedMotion: "reduce" });
  await screenshotOnFailure(page, "private-conversation-bookkeeper", async () => {
    await page.goto("/dashboard?tab=messages");
    const readers = page.getByTestId("conversation-readers");
    await readers.getByText("Read by you, Dana Owner (everyone on your account) and your firm.", { exact: false }).waitFor();
    await page.getByRole("log", { name: "Messages" }).getByText("No messages yet.").waitFor();
    // No unread badge on the tab: the firm's answer was not written to him.
    expect(await page.getByRole("tab", { name: /unread/ }).count()).toBe(0);
    await page.getByRole("button", { name: "Only me and the firm" }).click();
    await page.getByRole("log", { name: "Messages" }).getByText("No messages yet.").waitFor();
    const body = (await page.textContent("body")) ?? "";
    expect(body).not.toContain(PRIVATE_TEXT);
    expect(body).not.toContain(FIRM_ANSWER);
    await expectAccessibleAtBothWidths(page, "private-conversation-bookkeeper");
  });
});
