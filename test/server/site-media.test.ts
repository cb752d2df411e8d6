// The firm's uploads for the public site (issue 31): pictures are decoded by their bytes, made
// into WebP without their metadata, and served under a content-named public path cached for a
// year; a video is checked by its first bytes, stored as it arrives and served in byte ranges.
// Over real HTTP against the real app, on local storage.
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sweepOrphanedObjects } from "../../server/storage/sweep-orphaned-objects.ts";
import { createUser, loginClient } from "../helpers/factories.ts";
import { ApiClient } from "../helpers/http.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

const MB = 1024 * 1024;
let server: TestServer;
let admin: ApiClient;
let client: ApiClient;
let clientDir: string;

beforeAll(async () => {
  // A landing page of our own: the test reads the public data the server embeds into it.
  clientDir = fs.mkdtempSync(path.join(os.tmpdir(), "site-media-client-"));
  fs.writeFileSync(path.join(clientDir, "index.html"), "<!doctype html><html><head><title>Site</title></head><body></body></html>");
  server = await startTestServer({ app: { clientDir } });
  admin = await loginClient(server.url, await createUser(server.db, { is_admin: true }), "admin");
  client = await loginClient(server.url, await createUser(server.db));
});
afterAll(async () => {
  await server.close();
  fs.rmSync(clientDir, { recursive: true, force: true });
});

function upload(caller: ApiClient, slot: string, bytes: Buffer, filename: string, type = "application/octet-stream") {
  const form = new FormData();
  form.append("file", new Blob([new Uint8Array(bytes)], { type }), filename);
  return caller.request("POST", `/api/admin/site-media/${slot}`, { body: form });
}

/** A photo as a phone takes it: a JPEG carrying its GPS position and camera in EXIF. */
async function photo(width: number, height: number): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: { r: 20, g: 90, b: 70 } } })
    .withExif({ IFD0: { Make: "PhoneMaker", Model: "Phone 12" }, IFD3: { GPSLatitudeRef: "N", GPSLatitude: "41/1 52/1 0/1" } })
    .jpeg()
    .toBuffer();
}

const png = (width = 64, height = 64) =>
  sharp({ create: { width, height, channels: 4, background: "#047857" } })
    .png()
    .toBuffer();
/** The start of an ISO media file (MP4): a box size, then "ftyp" and a brand. */
const mp4 = (bytes: number) => Buffer.concat([Buffer.from([0, 0, 0, 0x18]), Buffer.from("ftypisom"), randomBytes(bytes - 12)]);

describe("picture uploads", () => {
  it("stores a JPEG as WebP within its box, without its EXIF, at a content-named public path cached for a year", async () => {
    const original = await photo(3000, 2000);
    expect((await sharp(original).metadata()).exif).toBeDefined();
    const res = await upload(admin, "hero", original, "office.jpg", "image/jpeg");
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ slot: "hero", content_type: "image/webp", width: 1200, height: 800 });
    expect(res.body.url).toMatch(/^\/media\/hero-[0-9a-f]{32}\.webp$/);

    const file = await fetch(new URL(res.body.url, server.url));
    expect(file.status).toBe(200);
    expect(file.headers.get("content-type")).toBe("image/webp");
    expect(file.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    expect(file.headers.get("x-content-type-options")).toBe("nosniff");
    const bytes = Buffer.from(await file.arrayBuffer());
    const meta = await sharp(bytes).metadata();
    expect(meta).toMatchObject({ format: "webp", width: 1200, height: 800 });
    expect(meta.exif).toBeUndefined();
    expect(bytes.includes(Buffer.from("PhoneMaker"))).toBe(false);

    // The public site names the upload: the hero picture's content value, in the API and in the page.
    const content = await new ApiClient(server.url).get("/api/site-content");
    expect(content.body.hero.image.value).toBe(res.body.url);
    const page = await (await fetch(server.url)).text();
    expect(page).toContain(res.body.url);
  });

  it("keeps a small logo's size, and a new upload replaces the old file, whose URL is gone", async () => {
    const first = await upload(admin, "logo", await png(), "logo.png", "image/png");
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({ width: 64, height: 64 });
    const second = await upload(admin, "logo", await png(80, 40), "logo-wide.png", "image/png");
    expect(second.status).toBe(201);
    expect(second.body.url).not.toBe(first.body.url);
    expect((await fetch(new URL(first.body.url, server.url))).status).toBe(404);
    expect((await fetch(new URL(second.body.url, server.url))).status).toBe(200);
    const rows = await server.db.selectFrom("site_media").select("slot").where("slot", "=", "logo").execute();
    expect(rows).toHaveLength(1);
  });

  it("refuses an SVG, whatever its declared type, with 415 and nothing stored", async () => {
    const before = await server.db.selectFrom("site_media").select("name").execute();
    const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>alert(1)</script></svg>');
    const res = await upload(admin, "about", svg, "about.png", "image/png");
    expect(res.status).toBe(415);
    expect(res.body.detail).toBe("The picture must be a PNG, JPEG or WebP image (SVG and other types are not accepted)");
    expect(await server.db.selectFrom("site_media").select("name").execute()).toEqual(before);
  });

  it("refuses a GIF and a file that is no picture at all", async () => {
    const gif = await sharp({ create: { width: 4, height: 4, channels: 3, background: "#000" } })
      .gif()
      .toBuffer();
    const asGif = await upload(admin, "about", gif, "about.jpg", "image/jpeg");
    expect(asGif.status).toBe(415);
    expect(asGif.body.detail).toContain("PNG, JPEG or WebP");
    const text = await upload(admin, "about", Buffer.from("hello, not an image"), "about.png", "image/png");
    expect(text.status).toBe(415);
    expect(text.body.detail).toBe("The picture could not be read: upload a PNG, JPEG or WebP image");
  });

  it("refuses a picture over 10 MB with 413, and one exactly at 10 MB is read", async () => {
    const over = await upload(admin, "about", Buffer.alloc(10 * MB + 1, 1), "huge.png");
    expect(over.status).toBe(413);
    expect(over.body.detail).toBe("The picture must be at most 10 MB");
    // At the limit it is read and judged by its bytes (these are not a picture).
    const at = await upload(admin, "about", Buffer.alloc(10 * MB - 64 * 1024, 1), "big.png");
    expect(at.status).toBe(415);
  });

  it("refuses a picture whose dimensions would take too much memory to decode", async () => {
    const wide = await sharp({ create: { width: 10000, height: 6000, channels: 3, background: "#fff" } })
      .png({ compressionLevel: 9 })
      .toBuffer();
    const res = await upload(admin, "about", wide, "wide.png", "image/png");
    expect(res.status).toBe(422);
    expect(res.body.detail).toContain("50 megapixels");
  });
});

describe("two uploads at once", () => {
  it("into an empty slot: one wins, the other is 201 or a 409, never a 500, and nothing is left behind", async () => {
    const answers = await Promise.all([upload(admin, "about", await png(40, 30), "a.png"), upload(admin, "about", await png(30, 40), "b.png")]);
    for (const answer of answers) expect([201, 409]).toContain(answer.status);
    expect(answers.some((a) => a.status === 201)).toBe(true);
    const rows = await server.db.selectFrom("site_media").select("storage_key").execute();
    expect(rows.filter((r) => r.storage_key).length).toBe(rows.length);
    const stored = [];
    for await (const object of server.deps.storage.list()) stored.push(object.key);
    expect(stored.sort()).toEqual(rows.map((r) => r.storage_key).sort());
  });
});

describe("who may upload", () => {
  it("refuses anonymous callers (401) and clients (403), and an unknown slot (422)", async () => {
    const anonymous = await upload(new ApiClient(server.url), "logo", await png(), "logo.png");
    expect(anonymous.status).toBe(401);
    const asClient = await upload(client, "logo", await png(), "logo.png");
    expect(asClient.status).toBe(403);
    const asClientVideo = await upload(client, "video", mp4(1024), "v.mp4");
    expect(asClientVideo.status).toBe(403);
    expect((await client.delete("/api/admin/site-media/logo")).status).toBe(403);
    expect((await client.patch("/api/admin/site-options", { testimonials: false })).status).toBe(403);
    const unknown = await upload(admin, "favicon", await png(), "icon.png");
    expect(unknown.status).toBe(422);
  });
});

describe("the welcome video", () => {
  let video: { url: string; byte_size: number };
  const bytes = mp4(256 * 1024);

  it("refuses captions before there is a video", async () => {
    const res = await upload(admin, "captions", Buffer.from("WEBVTT\n\n00:00.000 --> 00:01.000\nHello\n"), "welcome.vtt");
    expect(res.status).toBe(409);
    expect(res.body.detail).toBe("Upload the video before its captions");
  });

  it("refuses a PNG renamed .mp4 and a file too short to be a video, with 415 and nothing stored", async () => {
    const renamed = await upload(admin, "video", await png(), "welcome.mp4", "video/mp4");
    expect(renamed.status).toBe(415);
    expect(renamed.body.detail).toBe("The video must be an MP4 or WebM file");
    const tiny = await upload(admin, "video", Buffer.from("ftyp"), "welcome.mp4", "video/mp4");
    expect(tiny.status).toBe(415);
    expect(await server.db.selectFrom("site_media").select("slot").where("slot", "=", "video").execute()).toEqual([]);
    const stored = [];
    for await (const object of server.deps.storage.list()) stored.push(object.key);
    const named = await server.db.selectFrom("site_media").select("storage_key").execute();
    expect(stored.sort()).toEqual(named.map((r) => r.storage_key).sort());
  });

  it("refuses a video whose declared length passes 200 MB before reading it", async () => {
    // A client announcing 201 MB gets its 413 after a few bytes, not after 200 MB.
    const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = http.request(new URL("/api/admin/site-media/video", server.url), {
        method: "POST",
        headers: {
          Origin: server.url,
          Cookie: [...admin.cookies].map(([k, v]) => `${k}=${v}`).join("; "),
          "Content-Type": "multipart/form-data; boundary=x",
          "Content-Length": String(201 * MB),
        },
      });
      req.on("response", (res) => {
        let body = "";
        res.on("data", (chunk: Buffer) => (body += chunk.toString()));
        res.on("end", () => {
          req.destroy();
          resolve({ status: res.statusCode ?? 0, body });
        });
      });
      req.on("error", reject);
      req.write("--x\r\n");
    });
    expect(answer.status).toBe(413);
    expect(JSON.parse(answer.body).detail).toBe("The video must be at most 200 MB");
  });

  it("stores an MP4 and serves it whole and in byte ranges (206), with 416 past its end", async () => {
    const res = await upload(admin, "video", bytes, "Welcome.mp4", "video/mp4");
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ slot: "video", content_type: "video/mp4", byte_size: bytes.length, width: null });
    expect(res.body.url).toMatch(/^\/media\/video-[0-9a-f]{32}\.mp4$/);
    video = res.body;
    const url = new URL(video.url, server.url);

    const whole = await fetch(url);
    expect(whole.status).toBe(200);
    expect(whole.headers.get("accept-ranges")).toBe("bytes");
    expect(whole.headers.get("content-type")).toBe("video/mp4");
    expect(whole.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    expect(Buffer.from(await whole.arrayBuffer()).equals(bytes)).toBe(true);

    const middle = await fetch(url, { headers: { Range: "bytes=100-199" } });
    expect(middle.status).toBe(206);
    expect(middle.headers.get("content-range")).toBe(`bytes 100-199/${bytes.length}`);
    expect(middle.headers.get("content-length")).toBe("100");
    expect(Buffer.from(await middle.arrayBuffer()).equals(bytes.subarray(100, 200))).toBe(true);

    const open = await fetch(url, { headers: { Range: `bytes=${bytes.length - 10}-` } });
    expect(open.status).toBe(206);
    expect(Buffer.from(await open.arrayBuffer()).equals(bytes.subarray(bytes.length - 10))).toBe(true);

    const suffix = await fetch(url, { headers: { Range: "bytes=-5" } });
    expect(suffix.status).toBe(206);
    expect(suffix.headers.get("content-range")).toBe(`bytes ${bytes.length - 5}-${bytes.length - 1}/${bytes.length}`);
    expect(Buffer.from(await suffix.arrayBuffer()).equals(bytes.subarray(bytes.length - 5))).toBe(true);

    const past = await fetch(url, { headers: { Range: `bytes=${bytes.length}-` } });
    expect(past.status).toBe(416);
    expect(past.headers.get("content-range")).toBe(`bytes */${bytes.length}`);
    expect(past.headers.get("cache-control")).toBe("no-store");
    expect((await past.json()).detail).toContain(`${bytes.length} bytes`);

    const unknown = await fetch(new URL("/media/video-00000000000000000000000000000000.mp4", server.url));
    expect(unknown.status).toBe(404);
  });

  it("takes WebVTT captions, refuses other text, and the landing page names the video and its captions", async () => {
    const notVtt = await upload(admin, "captions", Buffer.from("1\n00:00:00,000 --> 00:00:01,000\nHello\n"), "welcome.srt");
    expect(notVtt.status).toBe(415);
    expect(notVtt.body.detail).toBe('Captions must be a WebVTT file (.vtt, text starting with "WEBVTT")');
    const vtt = await upload(admin, "captions", Buffer.from("\uFEFFWEBVTT\n\n00:00.000 --> 00:01.000\nWelcome\n"), "welcome.vtt", "text/vtt");
    expect(vtt.status).toBe(201);
    const file = await fetch(new URL(vtt.body.url, server.url));
    expect(file.headers.get("content-type")).toBe("text/vtt; charset=utf-8");

    const media = await new ApiClient(server.url).get("/trpc/siteMedia.public");
    expect(media.status).toBe(200);
    const page = await (await fetch(server.url)).text();
    expect(page).toContain(`"video":{"src":"${video.url}","type":"video/mp4","captions":"${vtt.body.url}"}`);
  });

  it("keeps uploaded files from the orphan sweep", async () => {
    const removed = await sweepOrphanedObjects({ ...server.deps, now: () => new Date(Date.now() + 2 * 60 * 60 * 1000) });
    expect(removed).toBe(0);
    expect((await fetch(new URL(video.url, server.url))).status).toBe(200);
  });

  it("removing the video removes its captions, and the site falls back to no video", async () => {
    const res = await admin.delete("/api/admin/site-media/video");
    expect(res.status).toBe(200);
    expect((await fetch(new URL(video.url, server.url))).status).toBe(404);
    const view = await admin.get("/api/admin/site-media");
    expect(view.body.items.video).toBeUndefined();
    expect(view.body.items.captions).toBeUndefined();
    const page = await (await fetch(server.url)).text();
    expect(page).toContain('"video":null');
    expect((await admin.delete("/api/admin/site-media/video")).status).toBe(404);
  });
});

describe("the site's switches", () => {
  it("turns the welcome modal and the testimonials off, shows it on the landing page, and records the change", async () => {
    const before = await admin.get("/api/admin/site-media");
    expect(before.body).toMatchObject({
      welcomeModal: true,
      testimonials: true,
      testimonialsAreSamples: true,
      testimonialSamples: 12,
      testimonialsConfirmedAt: null,
    });
    const off = await admin.patch("/api/admin/site-options", { welcomeModal: false, testimonials: false });
    expect(off.status).toBe(200);
    expect(off.body).toMatchObject({ welcomeModal: false, testimonials: false });
    const page = await (await fetch(server.url)).text();
    expect(page).toContain('"welcomeModal":false,"testimonials":false');

    // One sample at a time (issue 48): the first of the list is the firm's now, eleven are still samples.
    const confirmed = await admin.post("/api/admin/testimonials/confirm", { index: 0 });
    expect(confirmed.status, confirmed.text).toBe(200);
    expect(confirmed.body).toMatchObject({ testimonialsAreSamples: false, testimonialSamples: 11, testimonialsConfirmedAt: null });

    const events = await server.db.selectFrom("activity_events").select(["action", "detail"]).where("action", "=", "site.update").execute();
    expect(events.map((e) => e.detail)).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ media: "hero", uploaded: "office.jpg" }),
        expect.objectContaining({ media: "video", removed: true }),
        expect.objectContaining({ options: { welcomeModal: false, testimonials: false } }),
        expect.objectContaining({ testimonials: "confirmed", author: "Maria Gonzalez" }),
      ]),
    );
    const empty = await admin.patch("/api/admin/site-options", {});
    expect(empty.status).toBe(422);
  });
});
