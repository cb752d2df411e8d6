// Scorecard item 3: argon2id with our parameters, the common-password list, and a login for an
// unknown username that costs and answers exactly like a wrong password.
import { dictionary } from "@zxcvbn-ts/language-common";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { Argon2Pool } from "../../server/auth/argon2-pool.ts";
import { ARGON2_OPTIONS } from "../../server/auth/password.ts";
import { createUser, loginClient } from "../helpers/factories.ts";
import { ApiClient } from "../helpers/http.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

let server: TestServer;
let anon: ApiClient;

beforeAll(async () => {
  server = await startTestServer();
  anon = new ApiClient(server.url);
});
afterAll(() => server.close());

const registration = (password: string) => {
  const id = Math.random().toString(36).slice(2, 8);
  return { username: `pw_${id}`, email: `pw_${id}@example.com`, name: "Pat Doe", password };
};

describe("stored hashes", () => {
  it("are argon2id with m=19456, t=2, p=1, read back from the stored hash", async () => {
    const input = registration("Copper-Kettle-Morning-9");
    expect((await anon.post("/api/auth/register", input)).status).toBe(200);
    const { password_hash } = await server.db
      .selectFrom("users")
      .select("password_hash")
      .where("username", "=", input.username)
      .executeTakeFirstOrThrow();
    const [, algorithm, version, params, salt, hash] = password_hash!.split("$");
    expect({ algorithm, version, params }).toEqual({
      algorithm: "argon2id",
      version: "v=19",
      params: `m=${ARGON2_OPTIONS.memoryCost},t=${ARGON2_OPTIONS.timeCost},p=${ARGON2_OPTIONS.parallelism}`,
    });
    expect(ARGON2_OPTIONS).toMatchObject({ memoryCost: 19456, timeCost: 2, parallelism: 1 });
    expect(Buffer.from(salt!, "base64").length).toBeGreaterThanOrEqual(16);
    expect(Buffer.from(hash!, "base64").length).toBeGreaterThanOrEqual(32);
  });
});

describe("the common-password list", () => {
  const common = dictionary["passwords-common"].slice(0, 10_000).filter((p) => p.length >= 6 && p.length <= 128);

  it("refuses common passwords at registration, from the top of the list to its 10,000th entry", async () => {
    const samples = [common[0]!, common[1]!, common[Math.floor(common.length / 2)]!, common[common.length - 1]!, common[0]!.toUpperCase()];
    for (const password of samples) {
      const res = await anon.post("/api/auth/register", registration(password));
      expect({ password, status: res.status, detail: res.body.detail }).toEqual({
        password,
        status: 422,
        detail: "This password is too common. Please choose a less predictable one.",
      });
    }
  });

  it("refuses them on password reset too", async () => {
    const res = await anon.post("/api/auth/reset-password", { token: "x".repeat(32), new_password: common[0] });
    expect(res.status).toBe(422);
  });
});

describe("guessable passwords (zxcvbn)", () => {
  const GUESSABLE =
    "This password is too easy to guess: it is made of common words, names, dates or patterns. Add another word or two, or choose a less predictable one.";

  it("refuses words, names, dates and keyboard rows with a number tacked on, and one built from the person's own username", async () => {
    for (const password of ["harbor81", "Summer2024", "monkey99", "hjkl789", "zzzzzzzz"]) {
      const res = await anon.post("/api/auth/register", registration(password));
      expect({ password, status: res.status, detail: res.body.detail }).toEqual({ password, status: 422, detail: GUESSABLE });
    }
    const own = { ...registration("x"), username: "quillfeather", email: "qf@example.com" };
    const res = await anon.post("/api/auth/register", { ...own, password: "quillfeather7" });
    expect({ status: res.status, detail: res.body.detail }).toEqual({ status: 422, detail: GUESSABLE });
    expect(await server.db.selectFrom("users").select("id").where("username", "=", "quillfeather").execute()).toEqual([]);
  });

  it("keeps the spec's 6-character minimum: a short random password is accepted, a longer phrase too", async () => {
    for (const password of ["xkq9zp", "Copper-Kettle-Evening-7"]) {
      const res = await anon.post("/api/auth/register", registration(password));
      expect({ password, status: res.status }).toEqual({ password, status: 200 });
    }
    const short = await anon.post("/api/auth/register", registration("xkq9z"));
    expect({ status: short.status, detail: short.body.detail }).toEqual({ status: 422, detail: "Password must be at least 6 characters long" });
  });

  it("refuses them on a change of password too, and the old password keeps working", async () => {
    const user = await createUser(server.db);
    const client = await loginClient(server.url, user);
    const res = await client.post("/api/auth/change-password", { current_password: user.password, new_password: "Summer2024" });
    expect({ status: res.status, detail: res.body.detail }).toEqual({ status: 422, detail: GUESSABLE });
    expect((await new ApiClient(server.url).post("/api/auth/login", { username: user.username, password: user.password })).status).toBe(200);
  });
});

describe("login for an unknown username", () => {
  it("runs exactly one argon2 verify and answers exactly like a wrong password", async () => {
    const user = await createUser(server.db);
    const verify = vi.spyOn(Argon2Pool.prototype, "verify");
    const wrong = await anon.post("/api/auth/login", { username: user.username, password: "Not-The-Password-1" });
    expect(verify).toHaveBeenCalledTimes(1);

    verify.mockClear();
    const unknown = await anon.post("/api/auth/login", { username: "no_such_user_here", password: "Not-The-Password-1" });
    expect(verify).toHaveBeenCalledTimes(1);

    expect({ status: unknown.status, body: unknown.body }).toEqual({ status: wrong.status, body: wrong.body });
    expect(unknown).toMatchObject({ status: 401, body: { detail: "Invalid username or password" } });

    verify.mockClear();
    const adminUnknown = await anon.post("/api/admin/login", { username: "no_such_admin", password: "Not-The-Password-1" });
    expect(verify).toHaveBeenCalledTimes(1);
    expect(adminUnknown.status).toBe(401);
    verify.mockRestore();
  });
});
