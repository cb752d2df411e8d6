import fs from "node:fs";
import { describe, expect, it } from "vitest";
import { Argon2InputError, Argon2Pool } from "../../server/auth/argon2-pool.ts";
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

  it.runIf(process.platform === "linux")("hashes on threads of lower priority than the event loop", async () => {
    const before = threadNiceness().filter((n) => n === 10).length;
    const pool = new Argon2Pool(2);
    await Promise.all([pool.hash("a", ARGON2_OPTIONS), pool.hash("b", ARGON2_OPTIONS)]);
    expect(threadNiceness().filter((n) => n === 10).length - before).toBe(2);
    expect(threadNiceness()[0]).toBe(0);
  });
});
