import fs from "node:fs";
import { describe, expect, it } from "vitest";
import { Argon2BusyError, Argon2InputError, Argon2Pool } from "../../server/auth/argon2-pool.ts";
import { ARGON2_OPTIONS } from "../../server/auth/password.ts";

/** Niceness of each thread of this process (field 19 of /proc/self/task/<tid>/stat). */
function threadNiceness(): number[] {
  return fs.readdirSync("/proc/self/task").map((tid) => {
    const stat = fs.readFileSync(`/proc/self/task/${tid}/stat`, "utf8");
    return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[16]);
  });
}

describe("argon2 pool", () => {
  it("hashes argon2id and verifies right and wrong passwords, many at once", async () => {
    const pool = new Argon2Pool(2);
    const passwords = Array.from({ length: 6 }, (_, i) => `correct horse battery ${i}`);
    const hashes = await Promise.all(passwords.map((p) => pool.hash(p, ARGON2_OPTIONS)));
    for (const h of hashes) expect(h).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(new Set(hashes).size).toBe(hashes.length);
    const checks = await Promise.all(hashes.flatMap((h, i) => [pool.verify(h, passwords[i]!), pool.verify(h, `${passwords[i]}!`)]));
    expect(checks).toEqual(hashes.flatMap(() => [true, false]));
  });

  it("rejects a malformed hash and keeps working", async () => {
    const pool = new Argon2Pool(1);
    await expect(pool.verify("not-a-hash", "secret")).rejects.toBeInstanceOf(Argon2InputError);
    const hash = await pool.hash("still works", ARGON2_OPTIONS);
    await expect(pool.verify(hash, "still works")).resolves.toBe(true);
  });

  it("refuses a job once its queue is full, rather than letting the queue grow", async () => {
    const pool = new Argon2Pool(1, 2);
    const hash = await pool.hash("right", ARGON2_OPTIONS);
    const running = pool.verify(hash, "right");
    const queued = [pool.verify(hash, "wrong-1"), pool.verify(hash, "wrong-2")];
    await expect(pool.verify(hash, "wrong-3")).rejects.toBeInstanceOf(Argon2BusyError);
    expect(pool.queued).toBe(2);
    await expect(Promise.all([running, ...queued])).resolves.toEqual([true, false, false]);
  });

  it("drops a queued job when its request goes away, and takes none for a request already gone", async () => {
    const pool = new Argon2Pool(1);
    const hash = await pool.hash("right", ARGON2_OPTIONS);
    const running = pool.verify(hash, "right");
    const gone = new AbortController();
    const dropped = expect(pool.verify(hash, "wrong", gone.signal)).rejects.toMatchObject({ name: "AbortError" });
    const kept = pool.verify(hash, "right");
    expect(pool.queued).toBe(2);
    gone.abort();
    expect(pool.queued).toBe(1);
    await dropped;
    await expect(pool.verify(hash, "right", gone.signal)).rejects.toMatchObject({ name: "AbortError" });
    await expect(Promise.all([running, kept])).resolves.toEqual([true, true]);
  });

  it.runIf(process.platform === "linux")("hashes on threads of lower priority than the event loop", async () => {
    const before = threadNiceness().filter((n) => n === 10).length;
    const pool = new Argon2Pool(2);
    await Promise.all([pool.hash("a", ARGON2_OPTIONS), pool.hash("b", ARGON2_OPTIONS)]);
    expect(threadNiceness().filter((n) => n === 10).length - before).toBe(2);
    expect(threadNiceness()[0]).toBe(0);
  });
});
