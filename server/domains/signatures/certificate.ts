// The certificate that seals signed PDFs (docs/decisions.md, "Signatures", and docs/security.md).
// SIGNING_P12 (a path to a PKCS#12 file, or its base64) with SIGNING_P12_PASSWORD is the firm's
// own. Without it the portal makes a self-signed certificate the first time it seals, once for every
// instance (the row's primary key decides a race), and keeps it in the database table
// signing_certificates: the PKCS#12 under a random password, and that password sealed as the
// authenticator secrets are (AES-256-GCM with TOTP_ENCRYPTION_KEY when it is set, in the clear
// otherwise, which security.md tells an operator to avoid).
import { generateKeyPairSync, randomBytes } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import forge from "node-forge";
import { openTotpKey, sealTotpKey } from "../../auth/totp.ts";
import type { AppDeps } from "../../trpc/context.ts";
import { findSigningCertificate, insertSigningCertificate } from "./queries.ts";

export type SealingIdentity = { p12: Buffer; passphrase: string; source: "configured" | "self-signed" };

const SELF_SIGNED_ID = "self-signed";
const YEARS_VALID = 10;

/** SIGNING_P12's bytes (a path or base64), or null without one. */
function configuredP12(config: AppDeps["config"]): Buffer | null {
  const configured = config.signing.p12;
  if (!configured) return null;
  return existsSync(configured) ? readFileSync(configured) : Buffer.from(configured, "base64");
}

/**
 * Checked when the server starts, so a wrong SIGNING_P12 or password stops the start with its reason
 * instead of failing the first client's last signature: the PKCS#12 must open with the password and
 * hold a private key and a certificate.
 */
export function checkConfiguredSigningIdentity(config: AppDeps["config"]): void {
  const p12 = configuredP12(config);
  if (!p12) return;
  let bags: { key: number; cert: number };
  try {
    const parsed = forge.pkcs12.pkcs12FromAsn1(forge.asn1.fromDer(forge.util.createBuffer(p12.toString("binary"))), config.signing.password);
    const keys = parsed.getBags({ bagType: forge.pki.oids.pkcs8ShroudedKeyBag! })[forge.pki.oids.pkcs8ShroudedKeyBag!] ?? [];
    const plainKeys = parsed.getBags({ bagType: forge.pki.oids.keyBag! })[forge.pki.oids.keyBag!] ?? [];
    const certs = parsed.getBags({ bagType: forge.pki.oids.certBag! })[forge.pki.oids.certBag!] ?? [];
    bags = { key: keys.length + plainKeys.length, cert: certs.length };
  } catch (err) {
    throw new Error(`SIGNING_P12 does not open with SIGNING_P12_PASSWORD as a PKCS#12 file: ${(err as Error).message}`, { cause: err });
  }
  if (bags.key === 0 || bags.cert === 0) throw new Error("SIGNING_P12 must hold a private key and its certificate");
}

export async function sealingIdentity(deps: Pick<AppDeps, "config" | "db" | "now">): Promise<SealingIdentity> {
  const p12 = configuredP12(deps.config);
  if (p12) return { p12, passphrase: deps.config.signing.password, source: "configured" };
  let stored = await findSigningCertificate(deps.db, SELF_SIGNED_ID);
  if (!stored) {
    const made = makeSelfSigned(deps.config.publicUrl, deps.now());
    await insertSigningCertificate(deps.db, {
      id: SELF_SIGNED_ID,
      p12: made.p12.toString("base64"),
      sealed_password: sealTotpKey(Buffer.from(made.passphrase, "utf8"), deps.config.totpEncryptionKey),
    });
    stored = await findSigningCertificate(deps.db, SELF_SIGNED_ID);
    if (!stored) throw new Error("the self-signed sealing certificate could not be stored");
  }
  const passphrase = Buffer.from(openTotpKey(stored.sealed_password, deps.config.totpEncryptionKey)).toString("utf8");
  return { p12: Buffer.from(stored.p12, "base64"), passphrase, source: "self-signed" };
}

/** An RSA-2048 key (made by Node: forge's own generator takes seconds) and a certificate for the portal's host. */
function makeSelfSigned(publicUrl: string, now: Date): { p12: Buffer; passphrase: string } {
  const { privateKey, publicKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
  const key = forge.pki.privateKeyFromPem(privateKey.export({ type: "pkcs1", format: "pem" }).toString());
  const cert = forge.pki.createCertificate();
  cert.publicKey = forge.pki.publicKeyFromPem(publicKey.export({ type: "spki", format: "pem" }).toString());
  cert.serialNumber = `01${randomBytes(15).toString("hex")}`;
  cert.validity.notBefore = new Date(now.getTime() - 60_000);
  cert.validity.notAfter = new Date(now.getTime() + YEARS_VALID * 365 * 24 * 3600 * 1000);
  const attrs = [
    { name: "commonName", value: `Client portal document seal (${new URL(publicUrl).hostname})` },
    { name: "organizationName", value: "Client portal" },
  ];
  cert.setSubject(attrs);
  cert.setIssuer(attrs);
  cert.setExtensions([
    { name: "basicConstraints", cA: false },
    { name: "keyUsage", digitalSignature: true, nonRepudiation: true },
  ]);
  cert.sign(key, forge.md.sha256.create());
  const passphrase = randomBytes(24).toString("base64url");
  const asn1 = forge.pkcs12.toPkcs12Asn1(key, [cert], passphrase, { algorithm: "aes256" });
  return { p12: Buffer.from(forge.asn1.toDer(asn1).getBytes(), "binary"), passphrase };
}
