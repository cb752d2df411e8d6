/*
 * Secure messages in Chromium against the real server: a client and the admin, each in a page of
 * their own, exchange messages with attachments (the client attaches a document already stored,
 * the firm uploads a new one into the client's Messages folder). Each sees the other's message
 * appear without a reload, sooner than the 15-second polling could bring it (the event stream);
 * links are clickable and markup shows as typed. Both views pass axe at 1280 and 390 px.
 */
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectAccessibleAtBothWidths, releaseBrowser, screenshotOnFailure, sharedBrowser, type TestPage } from "../helpers/browser.ts";
import { signedInPage } from "../helpers/admin-sign-in.ts";
import { createUser, loginClient, type UserFixture } from "../helpers/factories.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

/** Well under the pages' 15-second polling: what arrives within this came through the stream. */
const LIVE_MS = 8_000;

let server: TestServer;
let browser: Browser;
let admin: TestPage;
let client: TestPage;
let adminUser: UserFixture;
let clientUser: UserFixture;
/** The client's own API session, to ask the server what it counts. */
let clientApi: Awaited<ReturnType<typeof loginClient>>;

beforeAll(async () => {
  server = await startTestServer();
  browser = await sharedBrowser();
  adminUser = await createUser(server.db, { is_admin: true, name: "Office Admin" });
  clientUser = await createUser(server.db, { name: "Greta Lindqvist" });
  const api = await loginClient(server.url, clientUser);
  clientApi = api;
  const form = new FormData();
  form.append("file", new Blob(["wages 52,000"], { type: "text/plain" }), "W-2 2026.txt");
  expect((await api.request("POST", "/api/documents/upload", { body: form })).status).toBe(201);
  admin = await signedInPage(browser, server.url, adminUser, "admin");
  client = await signedInPage(browser, server.url, clientUser, "client");
}, 120_000);

afterAll(async () => {
  await admin?.close();
  await client?.close();
  await releaseBrowser(browser);
  await server?.close();
});

describe("secure messages", () => {
  it("the client writes with a stored document attached, and the firm sees it arrive without a reload", async () => {
    await admin.page.goto("/admin/dashboard?tab=messages");
    await admin.page.getByText("No messages yet.").waitFor();
    await client.page.goto("/dashboard?tab=messages");
    await client.page.getByRole("log", { name: "Messages" }).getByText("No messages yet.").waitFor();

    await screenshotOnFailure(client.page, "messages-client-send", async () => {
      const { page } = client;
      await page.getByLabel("Message", { exact: true }).fill("Hello,\nmy W-2 is attached.\nDetails: https://example.com/w2-help");
      await page.getByRole("button", { name: "Attach a document" }).click();
      const dialog = page.getByRole("dialog", { name: "Attach a document" });
      await dialog.getByRole("button", { name: "W-2 2026.txt" }).click();
      await page.getByRole("list", { name: "Attachments" }).getByText("W-2 2026.txt").waitFor();
      await page.getByRole("button", { name: "Send", exact: true }).click();
      const sent = page.getByRole("article", { name: "Message from You" });
      await sent.getByRole("link", { name: "https://example.com/w2-help" }).waitFor();
      expect(await sent.getByText(/^Hello,\nmy W-2 is attached\.\nDetails: $/).count()).toBe(0);
      expect(await sent.locator("p.whitespace-pre-wrap").innerText()).toBe("Hello,\nmy W-2 is attached.\nDetails: https://example.com/w2-help");
      await sent.getByRole("link", { name: /W-2 2026\.txt/ }).waitFor();
    });

    await screenshotOnFailure(admin.page, "messages-admin-receive", async () => {
      const { page } = admin;
      const conversation = page.getByRole("button", { name: /^Greta Lindqvist 1 unread/ });
      await conversation.waitFor({ timeout: LIVE_MS });
      await page.getByRole("tab", { name: "Messages 1 unread" }).waitFor({ timeout: LIVE_MS });
      await conversation.click();
      const received = page.getByRole("article", { name: "Message from Greta Lindqvist" });
      await received.getByRole("link", { name: "https://example.com/w2-help" }).waitFor();
      expect(await received.getByRole("link", { name: "https://example.com/w2-help" }).getAttribute("target")).toBe("_blank");
      await received.getByRole("link", { name: /W-2 2026\.txt/ }).waitFor();
      // Opening the conversation read it.
      await page.getByRole("button", { name: /^Greta Lindqvist Hello,/ }).waitFor();
      await page.getByRole("tab", { name: "Messages", exact: true }).waitFor();
      await expectAccessibleAtBothWidths(page, "messages-admin-conversation");
    });
  });

  it("the firm answers with a new upload, and the client sees it arrive without a reload", async () => {
    await screenshotOnFailure(admin.page, "messages-admin-reply", async () => {
      const { page } = admin;
      await page.getByLabel("Message", { exact: true }).fill("Thanks! <b>not bold</b>\nPlease sign the attached letter.");
      await page
        .getByLabel("Upload files to attach")
        .setInputFiles({ name: "Engagement letter.txt", mimeType: "text/plain", buffer: Buffer.from("sign here") });
      await page.getByRole("list", { name: "Attachments" }).getByText("Engagement letter.txt").waitFor();
      await page.getByRole("button", { name: "Send", exact: true }).click();
      await page.getByRole("article", { name: "Message from You" }).getByText("Engagement letter.txt").waitFor();
    });

    await screenshotOnFailure(client.page, "messages-client-receive", async () => {
      const { page } = client;
      const reply = page.getByRole("article", { name: "Message from Office Admin" });
      await reply.waitFor({ timeout: LIVE_MS });
      expect(await reply.locator("p.whitespace-pre-wrap").innerText()).toBe("Thanks! <b>not bold</b>\nPlease sign the attached letter.");
      expect(await reply.locator("b").count()).toBe(0);
      const attachment = reply.getByRole("link", { name: /Engagement letter\.txt/ });
      expect(await attachment.getAttribute("href")).toMatch(/^\/api\/documents\/[0-9a-f-]{36}\/download$/);
      await expectAccessibleAtBothWidths(page, "messages-client-conversation");
    });

    client.expectNoConsoleErrors();
    admin.expectNoConsoleErrors();
  });

  it("the unread count shows on the client's Messages tab while another tab is open", async () => {
    const { page } = client;
    // The page's stream answers before the firm writes, so LIVE_MS measures the message's way
    // through the stream, not the page starting up as well (once, in a full run on a loaded
    // machine, the two together took longer than LIVE_MS).
    const streamOpen = page.waitForResponse((res) => new URL(res.url()).pathname === "/api/messages/events" && res.status() === 200);
    await page.goto("/dashboard?tab=documents");
    await streamOpen;
    // What the server counts as unread before the firm writes: the count shown must grow by one.
    // (Twice in loaded full runs the tab never said "1 unread" within LIVE_MS; if the previous
    // test's reply was still unread, the tab said "2 unread", which this now tells apart.)
    const before = ((await clientApi.get("/api/messages/unread")).body as { unread: number }).unread;
    await admin.page.getByLabel("Message", { exact: true }).fill("One more thing.");
    await admin.page.getByRole("button", { name: "Send", exact: true }).click();
    const tab = page.getByRole("tab", { name: `Messages ${before + 1} unread` });
    await tab.waitFor({ timeout: LIVE_MS }).catch(async (err: unknown) => {
      const shown = await page
        .getByRole("tablist")
        .first()
        .innerText()
        .catch(() => "(no tab list)");
      const now = ((await clientApi.get("/api/messages/unread")).body as { unread: number }).unread;
      throw new Error(`unread ${before} before the firm wrote, ${now} now; the tabs show ${JSON.stringify(shown)}`, { cause: err });
    });
    await tab.click();
    await page.getByRole("article", { name: "Message from Office Admin" }).getByText("One more thing.").waitFor();
    await page.getByRole("tab", { name: "Messages", exact: true }).waitFor();
  });
});
