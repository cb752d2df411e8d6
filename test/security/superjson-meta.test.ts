// Issue 23, item 1: superjson trusted the `meta` a caller sends with a tRPC input. A 90-byte body
// made its annotation walk recurse until the stack overflowed (milliseconds of main thread each),
// so a burst of them stalled every other request; other annotations built classes, compiled
// regular expressions or parsed megabyte bigints. The server now checks `meta` before decoding.
import { performance } from "node:perf_hooks";
import { createTRPCClient, httpBatchLink } from "@trpc/client";
import superjson from "superjson";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AppRouter } from "../../server/domains/_app.ts";
import { createUser, loginClient } from "../helpers/factories.ts";
import { ApiClient, type ApiResponse } from "../helpers/http.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

const ATTACK = `{"json":{"username":"a","password":"x"},"meta":{"values":{"username":["class","Foo"]}}}`;
/** The same size and procedure, refused by input validation: what any bad request costs. */
const CONTROL = `{"json":{"username":1,"password":"x"},"meta":{"values":{"password":["undefined"]}}}`;

const BURST_MS = 10_000;

let server: TestServer;
let anon: ApiClient;
let admin: ApiClient;
let client: ApiClient;

beforeAll(async () => {
  server = await startTestServer();
  anon = new ApiClient(server.url);
  admin = await loginClient(server.url, await createUser(server.db, { is_admin: true }), "admin");
  client = await loginClient(server.url, await createUser(server.db));
});
afterAll(async () => {
  await server.close();
});

type TrpcError = { error?: { json?: { message?: string; data?: { code?: string; httpStatus?: number } } } };

function post(path: string, body: string, as: ApiClient = anon): Promise<ApiResponse<TrpcError & TrpcError[]>> {
  return as.request("POST", `/trpc/${path}`, { body, headers: { "Content-Type": "application/json" } });
}

function message(body: TrpcError | undefined): string | undefined {
  return body?.error?.json?.message;
}

function errorLogs(): string[] {
  return server.logs.filter((line) => (JSON.parse(line) as { level: number }).level >= 50);
}

/**
 * Up to `count` requests with `body`, `concurrency` at a time and for at most `BURST_MS`, while
 * /api/health is asked again and again. Main-thread time comes from the event loop's own
 * accounting (the server runs in this process): what the requests cost, not how long they waited.
 */
async function burst(body: string, count: number, concurrency: number) {
  const statuses: number[] = [];
  const health: number[] = [];
  let sent = 0;
  let running = true;
  const before = performance.eventLoopUtilization();
  const started = performance.now();
  const healthLoop = (async () => {
    while (running) {
      const t = performance.now();
      const res = await anon.get("/api/health");
      health.push(performance.now() - t);
      expect(res.status).toBe(200);
    }
  })();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (sent < count && performance.now() - started < BURST_MS) {
        sent++;
        statuses.push((await post("auth.login", body)).status);
      }
    }),
  );
  running = false;
  await healthLoop;
  const elapsed = performance.now() - started;
  const mainThreadMs = performance.eventLoopUtilization(before).active;
  return { statuses, elapsed, mainThreadMsPerRequest: mainThreadMs / statuses.length, worstHealthMs: Math.max(...health) };
}

describe("superjson meta", () => {
  it("the issue's body answers 400 at once, and a burst of it costs no more than any bad request", async () => {
    const count = 300;
    const concurrency = 100;
    await burst(CONTROL, 50, 10);
    const control = await burst(CONTROL, count, concurrency);
    const attack = await burst(ATTACK, count, concurrency);
    console.info(
      `superjson bursts, ${concurrency} at a time: ` +
        `control ${control.statuses.length} requests, ${control.mainThreadMsPerRequest.toFixed(2)} ms main thread each, /api/health worst ${control.worstHealthMs.toFixed(0)} ms, ${control.elapsed.toFixed(0)} ms in all; ` +
        `attack ${attack.statuses.length} requests, ${attack.mainThreadMsPerRequest.toFixed(2)} ms each, /api/health worst ${attack.worstHealthMs.toFixed(0)} ms, ${attack.elapsed.toFixed(0)} ms in all`,
    );
    const res = await post("auth.login", ATTACK);
    expect(res.status).toBe(400);
    expect(message(res.body)).toBe("Invalid superjson input: only Date, undefined and number annotations are accepted");
    expect(new Set(control.statuses)).toEqual(new Set([400]));
    expect(new Set(attack.statuses)).toEqual(new Set([400]));
    // Before the check each attack request held the main thread 5 ms or more.
    expect(attack.mainThreadMsPerRequest - control.mainThreadMsPerRequest).toBeLessThan(1);
    expect(attack.worstHealthMs).toBeLessThan(control.worstHealthMs + 1_000);
    expect(errorLogs()).toEqual([]);
  }, 60_000);

  it("is refused in a batch and in a GET's ?input=", async () => {
    const batch = await post(
      "auth.login,auth.login,auth.login?batch=1",
      `{"0":{"json":{"username":1,"password":"x"}},"1":${ATTACK},"2":{"json":{"username":1,"password":"x"}}}`,
    );
    expect(batch.status).toBe(400);
    expect(batch.body.map((call) => call.error?.json?.data?.httpStatus)).toEqual([400, 400, 400]);
    expect(message(batch.body[1])).toBe("Invalid superjson input: only Date, undefined and number annotations are accepted");

    const attack = `{"json":{"folder_id":"a"},"meta":{"values":{"folder_id":["custom","x"]}}}`;
    const single = await client.get(`/trpc/documents.inFolder?input=${encodeURIComponent(attack)}`);
    expect(single.status).toBe(400);
    expect(message(single.body)).toBe("Invalid superjson input: only Date, undefined and number annotations are accepted");
    const batched = await client.get(`/trpc/documents.inFolder?batch=1&input=${encodeURIComponent(`{"0":${attack}}`)}`);
    expect(batched.status).toBe(400);
    expect(message(batched.body[0])).toBe("Invalid superjson input: only Date, undefined and number annotations are accepted");
  });

  const deepValues = `{"a":["Date",`.repeat(20_000) + `{}` + `]}`.repeat(20_000);
  const deepRecords = `{"a":`.repeat(20_000) + `["Date"]` + `}`.repeat(20_000);
  const login = (meta: string, json = `{"username":"a","password":"x"}`) => `{"json":${json},"meta":${meta}}`;

  it.each([
    [
      "a values tree 20,000 levels deep",
      login(`{"values":{"username":["Date",${deepValues}]}}`),
      "an annotation is [type] alone: Date, undefined and number hold no nested values",
    ],
    ["records nested 20,000 levels deep", login(`{"values":{"username":${deepRecords}}}`), "meta.values must map paths to [type]"],
    ["a class", login(`{"values":{"username":["class","Foo"]}}`), "only Date, undefined and number annotations are accepted"],
    ["a custom value", login(`{"values":{"username":["custom","Foo"]}}`), "only Date, undefined and number annotations are accepted"],
    ["a symbol", login(`{"values":{"username":["symbol","Foo"]}}`), "only Date, undefined and number annotations are accepted"],
    [
      "a typed array",
      login(`{"values":{"username":["typed-array","Uint8Array"]}}`, `{"username":[1,2],"password":"x"}`),
      "only Date, undefined and number annotations are accepted",
    ],
    [
      "an Error",
      login(`{"values":{"username":["Error"]}}`, `{"username":{"name":"Error","message":"x"},"password":"x"}`),
      "only Date, undefined and number annotations are accepted",
    ],
    [
      "a regexp",
      login(`{"values":{"username":["regexp"]}}`, `{"username":"/(a+)+$/","password":"x"}`),
      "only Date, undefined and number annotations are accepted",
    ],
    [
      "a set",
      login(`{"values":{"username":["set"]}}`, `{"username":["a"],"password":"x"}`),
      "only Date, undefined and number annotations are accepted",
    ],
    [
      "a megabyte bigint",
      `{"json":"${"9".repeat(900_000)}","meta":{"values":["bigint"],"v":1}}`,
      "only Date, undefined and number annotations are accepted",
    ],
    ["a string as values", login(`{"values":"username"}`), "meta.values must map paths to [type]"],
    [
      "a __proto__ path",
      login(`{"values":{"__proto__.polluted":["undefined"]},"v":1}`),
      "an annotation path may not name __proto__, prototype or constructor",
    ],
    [
      "a constructor path",
      login(`{"values":{"username.constructor":["undefined"]}}`),
      "an annotation path may not name __proto__, prototype or constructor",
    ],
    [
      "a path with 5,000 segments",
      login(`{"values":{"${"a.".repeat(5_000)}a":["undefined"]},"v":1}`),
      "an annotation path is longer than 256 characters",
    ],
    ["a path to nothing", login(`{"values":{"nobody.here":["undefined"]},"v":1}`), "an annotation path names no value of json"],
    [
      "a Date on an object",
      login(`{"values":{"username":["Date"]},"v":1}`, `{"username":{"a":[1]},"password":"x"}`),
      "an annotation does not fit the value at its path",
    ],
    [
      "2,000 annotations",
      login(`{"values":{${Array.from({ length: 2_000 }, (_, i) => `"k${i}":["undefined"]`).join(",")}},"v":1}`),
      "more than 1000 annotations",
    ],
    ["a referentialEqualities cycle", login(`{"referentialEqualities":{"":["username"]},"v":1}`), "meta.referentialEqualities is not accepted"],
    [
      "a referentialEqualities root cycle",
      login(`{"referentialEqualities":[["username","password"]],"v":1}`),
      "meta.referentialEqualities is not accepted",
    ],
    ["meta as a string", login(`"values"`), "meta must be an object"],
    ["meta as an array", login(`[{"values":{}}]`), "meta must be an object"],
    ["meta as null", login(`null`), "meta must be an object"],
    ["meta with another key", login(`{"values":{},"extra":1}`), "meta may only hold values and v"],
    ["meta.v other than 1", login(`{"values":{"password":["undefined"]},"v":0}`), "meta.v must be 1"],
    ["a key beside json and meta", `{"json":{"username":"a","password":"x"},"extra":{}}`, "expected {json} or {json, meta}"],
    ["no json", `{"meta":{"values":["undefined"],"v":1}}`, "expected {json} or {json, meta}"],
    ["an input that is not an object", `"json"`, "expected {json} or {json, meta}"],
    ["null as the input", `null`, "expected {json} or {json, meta}"],
  ])("refuses %s with 400 and says why", async (_name, body, why) => {
    const started = performance.now();
    const res = await post("auth.login", body);
    expect(res.status, res.text.slice(0, 300)).toBe(400);
    expect(message(res.body)).toBe(`Invalid superjson input: ${why}`);
    expect(res.body.error?.json?.data?.code).toBe("BAD_REQUEST");
    expect(performance.now() - started).toBeLessThan(1_000);
    expect(errorLogs()).toEqual([]);
  });

  it("still takes what the web client sends: Dates, undefined fields and inputs, batches, meta without v", async () => {
    const user = await createUser(server.db);
    // The web client's own set-up (src/lib/trpc.ts), with the admin's cookie.
    const web = createTRPCClient<AppRouter>({
      links: [
        httpBatchLink({
          url: `${server.url}/trpc`,
          transformer: superjson,
          maxItems: 10,
          headers: () => ({ Origin: server.url, Cookie: [...admin.cookies].map(([k, v]) => `${k}=${v}`).join("; ") }),
        }),
      ],
    });
    const when = new Date("2031-06-01T09:00:00.000Z");
    const created = await web.admin.appointments.create.mutate({ user_id: user.id, title: "Year end", appointment_date: when });
    expect(created.appointment_date).toEqual(when);
    const later = new Date("2031-06-02T10:30:00.000Z");
    const [moved, found, stats] = await Promise.all([
      web.admin.appointments.update.mutate({ id: created.id, appointment_date: later, title: undefined }),
      web.admin.users.query({ q: undefined, limit: 8 }),
      web.admin.stats.query(),
    ]);
    expect(moved.appointment_date).toEqual(later);
    expect(found.items.length).toBeGreaterThan(0);
    expect(stats).toBeTruthy();

    // What an older client or a hand-written call sends: superjson's legacy paths, no `v`.
    const legacy = await post(
      "admin.appointments.create",
      JSON.stringify({
        json: { user_id: user.id, title: "Legacy", appointment_date: "2031-07-01T09:00:00.000Z" },
        meta: { values: { appointment_date: ["Date"] } },
      }),
      admin,
    );
    expect(legacy.status, legacy.text).toBe(200);
    expect(errorLogs()).toEqual([]);
  });
});
