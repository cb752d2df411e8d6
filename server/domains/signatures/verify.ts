// Is this PDF one the portal sealed, unchanged? (POST /api/signatures/verify; docs/decisions.md,
// "Signatures"). Two independent answers: the file's SHA-256 is on record as a request's sealed
// file (so it was sealed here and not a byte differs), and its PKCS#7 signature holds: the
// /ByteRange covers the whole file but the signature's own hex, the signed digest is that of those
// bytes, and the signature over the signed attributes verifies with the certificate it carries.
import { createHash } from "node:crypto";
import forge from "node-forge";
import type { Db } from "../../db/types.ts";
import { findRequestBySealedHash, listSigners } from "./queries.ts";
import type { SealVerification } from "./schemas.ts";

export type ByteRangeCheck = { range: [number, number, number, number]; signatureHex: string; signed: Buffer };

/** The last signature's byte range, when it covers the whole file but the signature's `<hex>`. */
export function readByteRange(pdf: Buffer): ByteRangeCheck | null {
  const text = pdf.toString("latin1");
  const matches = [...text.matchAll(/\/ByteRange\s*\[\s*(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s*\]/g)];
  const last = matches[matches.length - 1];
  if (!last) return null;
  const range = [Number(last[1]), Number(last[2]), Number(last[3]), Number(last[4])] as [number, number, number, number];
  const [start, firstLength, secondStart, secondLength] = range;
  if (start !== 0 || secondStart <= firstLength || secondStart + secondLength !== pdf.length) return null;
  const contents = text.slice(firstLength, secondStart);
  if (!/^<[0-9a-fA-F]*>$/.test(contents)) return null;
  return {
    range,
    signatureHex: contents.slice(1, -1).replace(/(00)+$/, ""),
    signed: Buffer.concat([pdf.subarray(0, firstLength), pdf.subarray(secondStart, secondStart + secondLength)]),
  };
}

/** Whether the PKCS#7 detached signature signs exactly `signed` (SHA-256, with signed attributes). */
export function signatureHolds(check: ByteRangeCheck): boolean {
  try {
    const hex = check.signatureHex.length % 2 === 0 ? check.signatureHex : `${check.signatureHex}0`;
    const der = forge.util.hexToBytes(hex);
    const message = forge.pkcs7.messageFromAsn1(forge.asn1.fromDer(der)) as forge.pkcs7.PkcsSignedData & {
      rawCapture: { authenticatedAttributes?: forge.asn1.Asn1[]; signature: string };
    };
    const attributes = message.rawCapture.authenticatedAttributes;
    const certificate = message.certificates[0];
    if (!attributes || !certificate) return false;
    const digestAttribute = attributes.find((attribute) => {
      const parts = attribute.value as forge.asn1.Asn1[];
      return forge.asn1.derToOid(parts[0]!.value as string) === forge.pki.oids.messageDigest!;
    });
    if (!digestAttribute) return false;
    const values = (digestAttribute.value as forge.asn1.Asn1[])[1]!.value as forge.asn1.Asn1[];
    const signedDigest = Buffer.from(values[0]!.value as string, "binary");
    const actualDigest = createHash("sha256").update(check.signed).digest();
    if (!signedDigest.equals(actualDigest)) return false;
    const set = forge.asn1.create(forge.asn1.Class.UNIVERSAL, forge.asn1.Type.SET, true, attributes);
    const attributesDigest = forge.md.sha256.create().update(forge.asn1.toDer(set).getBytes()).digest().getBytes();
    return (certificate.publicKey as forge.pki.rsa.PublicKey).verify(attributesDigest, message.rawCapture.signature);
  } catch {
    return false;
  }
}

export async function verifySealedPdf(db: Db, pdf: Buffer): Promise<SealVerification> {
  const sha256 = createHash("sha256").update(pdf).digest("hex");
  const request = await findRequestBySealedHash(db, sha256);
  const range = readByteRange(pdf);
  const intact = range !== null && signatureHolds(range);
  const signers = request ? await listSigners(db, [request.id]) : [];
  const detail = request
    ? intact
      ? "This PDF was sealed by this portal and has not been changed since."
      : "This PDF matches a sealed file on record, but its digital signature does not verify."
    : intact
      ? "This PDF carries an intact digital signature, but it is not a file this portal sealed (or it was changed and signed again)."
      : range
        ? "This PDF was changed after it was signed, or it is not a file this portal sealed: its digital signature does not match its content."
        : "This PDF carries no digital signature this portal can check: it is not a file sealed here.";
  return {
    valid: request !== undefined && intact,
    sealed_here: request !== undefined,
    signature_intact: intact,
    detail,
    request: request
      ? {
          id: request.id,
          title: request.title,
          kind: request.kind,
          completed_at: request.completed_at,
          signers: signers.map((s) => ({ name: s.name, email: s.email, signed_at: s.signed_at, identity_method: s.identity_method })),
        }
      : null,
  };
}
