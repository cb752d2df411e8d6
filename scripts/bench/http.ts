// The bench's HTTP helpers: a free port for a child app, a signed-in session, a multipart upload body.
import { randomBytes } from "node:crypto";
import net from "node:net";
import { totpCodeForStep, totpStep } from "../../server/auth/totp.ts";

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.on("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

/** `totpKey`: for an account with two-factor sign-in (every admin), the key its codes come from. */
export async function login(
  appUrl: string,
  path: "/api/auth/login" | "/api/admin/login",
  username: string,
  password: string,
  totpKey?: Uint8Array,
): Promise<string> {
  const post = async (to: string, data: unknown) => {
    const res = await fetch(appUrl + to, {
      method: "POST",
      headers: { "content-type": "application/json", origin: appUrl },
      body: JSON.stringify(data),
    });
    return { res, body: (await res.json()) as { session_token?: string; detail?: string; two_factor_required?: boolean; challenge?: string } };
  };
  let { res, body } = await post(path, { username, password, return_token: true });
  if (res.ok && body.two_factor_required && totpKey) {
    ({ res, body } = await post("/api/auth/login/2fa", { challenge: body.challenge, code: totpCodeForStep(totpKey, totpStep(new Date())) }));
  }
  if (!res.ok || !body.session_token) throw new Error(`login ${username} at ${path}: ${res.status} ${body.detail ?? ""}`);
  return body.session_token;
}

/** One file field: `content` itself, or that many random bytes. */
export function multipartBody(content: number | Buffer): { body: Buffer; contentType: string } {
  const boundary = `----bench${randomBytes(8).toString("hex")}`;
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="ledger.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  return {
    body: Buffer.concat([head, typeof content === "number" ? randomBytes(content) : content, tail]),
    contentType: `multipart/form-data; boundary=${boundary}`,
  };
}
