// What one host can hold of the server: the attack was 19,900 slow connections from one address.
// Other loopback addresses (127.0.0.2, ...) stand in for other clients.
import { EventEmitter } from "node:events";
import http from "node:http";
import net from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { capConnections } from "../../server/http-limits.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import { createUser, loginClient } from "../helpers/factories.ts";

const PER_IP = 20;
const TOTAL = 40;
let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({
    env: { MAX_CONNECTIONS_PER_IP: String(PER_IP), MAX_CONNECTIONS: String(TOTAL) },
    connectionLimits: { headersTimeoutMs: 1000, bodyTimeoutMs: 1000, uploadTimeoutMs: 8000 },
  });
});
afterAll(() => server.close());

type Probe = { socket: net.Socket; closed: Promise<number>; received: () => string };

/** A raw connection from `from` that sends `request` (perhaps only part of one) and then waits. */
function connect(from: string, request = ""): Promise<Probe> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    let received = "";
    const socket = net.connect({ host: "127.0.0.1", port: server.port, localAddress: from });
    const closed = new Promise<number>((done) => socket.once("close", () => done(Date.now() - started)));
    socket.on("data", (chunk) => (received += String(chunk)));
    socket.on("error", () => undefined);
    socket.once("connect", () => {
      if (request) socket.write(request);
      resolve({ socket, closed, received: () => received });
    });
    socket.once("error", reject);
  });
}

function closedWithin(probe: Probe, ms: number): Promise<boolean> {
  return Promise.race([probe.closed.then(() => true), new Promise<boolean>((r) => setTimeout(() => r(false), ms))]);
}

async function health(from: string): Promise<number> {
  const probe = await connect(from, "GET /api/health HTTP/1.1\r\nHost: portal\r\nConnection: close\r\n\r\n");
  await probe.closed;
  return Number(/^HTTP\/1\.1 (\d{3})/.exec(probe.received())?.[1] ?? 0);
}

describe("connections", () => {
  it("caps the connections one address holds; other addresses are still served", async () => {
    const held = await Promise.all(Array.from({ length: PER_IP + 10 }, () => connect("127.0.0.2", "GET /api/health HTTP/1.1\r\n")));
    const outcomes = await Promise.all(held.map((p) => closedWithin(p, 300)));
    expect(outcomes.filter((closed) => closed)).toHaveLength(10);
    expect(await health("127.0.0.3")).toBe(200);
    for (const p of held) p.socket.destroy();
    await Promise.all(held.map((p) => p.closed));
    expect(await health("127.0.0.2")).toBe(200);
  });

  it("caps the connections in all", async () => {
    const held: Probe[] = [];
    for (let i = 0; i < TOTAL + 5; i++) held.push(await connect(`127.0.1.${1 + (i % 200)}`, "GET /api/health HTTP/1.1\r\n"));
    const outcomes = await Promise.all(held.map((p) => closedWithin(p, 300)));
    expect(outcomes.filter((closed) => closed)).toHaveLength(5);
    for (const p of held) p.socket.destroy();
    await Promise.all(held.map((p) => p.closed));
  });

  it("closes a connection whose request headers do not arrive in time", async () => {
    const silent = await connect("127.0.0.4");
    const partial = await connect("127.0.0.4", "GET /api/health HTTP/1.1\r\nHost: portal\r\n");
    expect(await closedWithin(silent, 4000)).toBe(true);
    expect(await closedWithin(partial, 4000)).toBe(true);
    expect(partial.received()).toMatch(/^HTTP\/1\.1 408/);
  });

  it("answers 408 to a JSON body trickled in slower than its deadline, and closes the connection", async () => {
    const slow = await connect(
      "127.0.0.5",
      `POST /api/auth/login HTTP/1.1\r\nHost: portal\r\nOrigin: ${server.url}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"user`,
    );
    const elapsed = await Promise.race([slow.closed, new Promise<number>((r) => setTimeout(() => r(-1), 5000))]);
    expect(elapsed).toBeGreaterThan(0);
    expect(slow.received()).toMatch(/^HTTP\/1\.1 408/);
    expect(slow.received()).toContain("The request body took too long to arrive");
  });

  it("gives an upload's body longer than other bodies", async () => {
    const user = await createUser(server.db);
    const client = await loginClient(server.url, user);
    const cookie = [...client.cookies].map(([k, v]) => `${k}=${v}`).join("; ");
    const boundary = "----portal-slow-upload";
    const head = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="w2.pdf"\r\nContent-Type: application/pdf\r\n\r\n`;
    const tail = `\r\n--${boundary}--\r\n`;
    const content = "%PDF-1.4 slow but steady";
    const upload = await connect(
      "127.0.0.6",
      `POST /api/documents/upload HTTP/1.1\r\nHost: portal\r\nOrigin: ${server.url}\r\nCookie: ${cookie}\r\n` +
        `Content-Type: multipart/form-data; boundary=${boundary}\r\nContent-Length: ${head.length + content.length + tail.length}\r\nConnection: close\r\n\r\n${head}`,
    );
    // Past the 1-second deadline of other bodies, the upload is still being received.
    await new Promise((r) => setTimeout(r, 2000));
    upload.socket.write(content + tail);
    await upload.closed;
    expect(upload.received()).toMatch(/^HTTP\/1\.1 201/);
  });
});

describe("connections from IPv6 addresses", () => {
  // The loopback interface has one IPv6 address, so connections from other ones are handed to the
  // cap as node would: a socket with that remote address, on a server's "connection" event.
  function arrive(server: http.Server, from: string): { destroyed: () => boolean; close: () => void } {
    let destroyed = false;
    const socket = Object.assign(new EventEmitter(), {
      remoteAddress: from,
      destroy() {
        destroyed = true;
      },
    });
    server.emit("connection", socket);
    return { destroyed: () => destroyed, close: () => socket.emit("close") };
  }

  it("counts every address of one /64 as one (issue 28: a host holds a /64, 2^64 addresses)", () => {
    const server = http.createServer();
    capConnections(server, { ...limitsForTest(), maxConnectionsPerIp: 3 });
    const sameHost = ["2001:db8:1:2::1", "2001:db8:1:2::2", "2001:0db8:0001:0002:ffff::9", "2001:db8:1:2:aaaa:bbbb:cccc:dddd"];
    const held = sameHost.map((address) => arrive(server, address));
    expect(held.map((c) => c.destroyed())).toEqual([false, false, false, true]);
    // Another /64 is another host; a closed connection frees its place.
    expect(arrive(server, "2001:db8:1:3::1").destroyed()).toBe(false);
    held[0]!.close();
    expect(arrive(server, "2001:db8:1:2::77").destroyed()).toBe(false);
  });
});

function limitsForTest() {
  return {
    maxConnections: 100,
    maxConnectionsPerIp: 20,
    headersTimeoutMs: 1000,
    bodyTimeoutMs: 1000,
    uploadTimeoutMs: 1000,
    keepAliveTimeoutMs: 5000,
  };
}
