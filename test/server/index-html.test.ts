import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { Kysely, PostgresDialect, sql } from "kysely";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApp } from "../../server/app.ts";
import type { Database } from "../../server/db/types.ts";
import { PUBLIC_SITE_DATA_ID } from "../../server/domains/site/public-data.ts";
import { ApiClient } from "../helpers/http.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

const template = '<!doctype html><html lang="en"><head><title>Portal</title></head><body><div id="root"></div></body></html>';
let clientDir: string;
let server: TestServer;
let anon: ApiClient;

beforeAll(async () => {
  clientDir = fs.mkdtempSync(path.join(os.tmpdir(), "portal-client-"));
  fs.writeFileSync(path.join(clientDir, "index.html"), template);
  server = await startTestServer({ env: { NOTARY_URL: "https://notary.example.com/" }, app: { clientDir } });
  anon = new ApiClient(server.url);
});

afterAll(async () => {
  await server?.close();
  fs.rmSync(clientDir, { recursive: true, force: true });
});

const dataBlock = new RegExp(`<script type="application/json" id="${PUBLIC_SITE_DATA_ID}">(.*?)</script>`, "s");

describe("index.html of the landing page", () => {
  it("carries the public site content and links, as the API answers them", async () => {
    const page = await anon.get("/");
    expect(page.status).toBe(200);
    expect(page.headers.get("content-type")).toMatch(/^text\/html/);
    expect(page.headers.get("cache-control")).toBe("no-cache");
    const embedded = page.text.match(dataBlock);
    expect(embedded, page.text).not.toBeNull();
    expect(page.text.indexOf(embedded![0])).toBeLessThan(page.text.indexOf("</head>"));
    expect(JSON.parse(embedded![1]!)).toEqual({
      content: (await anon.get("/api/site-content")).body,
      links: { notaryUrl: "https://notary.example.com/", firmTimeZone: "America/Chicago" },
      media: { video: null, welcomeModal: true, testimonials: true },
    });
  });

  it("shows an admin's edit on the next load", async () => {
    await server.db.insertInto("site_content").values({ section: "hero", key: "title", value: "Numbers you can trust" }).execute();
    try {
      const embedded = (await anon.get("/")).text.match(dataBlock);
      expect(JSON.parse(embedded![1]!).content.hero.title.value).toBe("Numbers you can trust");
    } finally {
      await server.db.deleteFrom("site_content").where("section", "=", "hero").where("key", "=", "title").execute();
    }
  });

  it("is rendered once and served from memory until the site content's version changes", async () => {
    const title = async () => JSON.parse((await anon.get("/")).text.match(dataBlock)![1]!).content.hero.title.value as string;
    await server.db.insertInto("site_content").values({ section: "hero", key: "title", value: "First title" }).execute();
    try {
      expect(await title()).toBe("First title");
      // A write that skips the version trigger (replica mode disables triggers for its session): a
      // page rendered per request would show it, the kept one does not.
      await server.db.transaction().execute(async (tx) => {
        await sql`set local session_replication_role = replica`.execute(tx);
        await tx.updateTable("site_content").set({ value: "Unseen title" }).where("section", "=", "hero").where("key", "=", "title").execute();
      });
      expect(await title()).toBe("First title");
      await server.db
        .updateTable("site_content_version")
        .set((eb) => ({ version: eb("version", "+", 1) }))
        .execute();
      expect(await title()).toBe("Unseen title");
    } finally {
      await server.db.deleteFrom("site_content").where("section", "=", "hero").where("key", "=", "title").execute();
    }
  });

  it("is compressed for a browser that accepts gzip, while small API answers are not", async () => {
    const page = await fetch(`${server.url}/`, { headers: { "accept-encoding": "gzip" } });
    await page.arrayBuffer();
    expect(page.headers.get("content-encoding")).toBe("gzip");
    const me = await fetch(`${server.url}/api/site-content`, { headers: { "accept-encoding": "gzip" } });
    await me.arrayBuffer();
    expect(me.headers.get("content-encoding")).toBeNull();
  });

  it("renders again when index.html is rebuilt", async () => {
    const file = path.join(clientDir, "index.html");
    expect((await anon.get("/")).text).toContain("<title>Portal</title>");
    fs.writeFileSync(file, template.replace("<title>Portal</title>", "<title>Rebuilt</title>"));
    fs.utimesSync(file, new Date(), new Date(Date.now() + 5000));
    try {
      expect((await anon.get("/")).text).toContain("<title>Rebuilt</title>");
    } finally {
      fs.writeFileSync(file, template);
    }
  });

  it("keeps markup in the content inert: it cannot close the data block", async () => {
    const value = '</script><script>alert(1)</script><!-- & "quoted" \u2028 Save $$ on taxes $\' $` $&';
    await server.db.insertInto("site_content").values({ section: "about", key: "title", value }).execute();
    try {
      const page = await anon.get("/");
      expect(page.text).not.toContain("<script>alert(1)");
      expect(page.text.match(/<\/script>/g)).toHaveLength(1);
      expect(JSON.parse(page.text.match(dataBlock)![1]!).content.about.title.value).toBe(value);
    } finally {
      await server.db.deleteFrom("site_content").where("section", "=", "about").where("key", "=", "title").execute();
    }
  });

  it("is left out of the other pages", async () => {
    for (const [page, status] of [
      ["/dashboard", 200],
      ["/admin", 200],
      ["/signatures/verify", 200],
      ["/signatures/8d4f0b8e-3c2a-4f5e-9b1d-2a6c7e8f9a0b", 200],
      ["/signatures/not-an-id", 404],
      ["/no/such/page", 404],
    ] as const) {
      const res = await anon.get(page);
      expect(res.status, page).toBe(status);
      expect(res.text, page).toBe(template);
    }
  });

  it("is left out when the database is down, so the page still loads and asks the API itself", async () => {
    const unreachable = new Kysely<Database>({
      dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: "postgres://postgres@127.0.0.1:1/none" }) }),
    });
    const app = http.createServer(createApp({ ...server.deps, db: unreachable }, { clientDir }));
    await new Promise<void>((resolve) => app.listen(0, "127.0.0.1", () => resolve()));
    try {
      const res = await fetch(`http://127.0.0.1:${(app.address() as AddressInfo).port}/`);
      expect(res.status).toBe(200);
      expect(await res.text()).toBe(template);
    } finally {
      await new Promise<void>((resolve) => app.close(() => resolve()));
      await unreachable.destroy();
    }
  });
});
