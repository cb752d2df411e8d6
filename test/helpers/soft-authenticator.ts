// A software passkey (ES256, "none" attestation, user verified) for API tests that need a real
// registration or sign-in ceremony without a browser: the answers are what an authenticator signs,
// checked by the server's real @simplewebauthn verification. The browser tests use Chromium's
// virtual authenticator instead (test/e2e/account-security.e2e.test.ts).
import { createHash, generateKeyPairSync, randomBytes, sign } from "node:crypto";
import { isoCBOR } from "@simplewebauthn/server/helpers";

const b64url = (value: Uint8Array | string) => Buffer.from(value).toString("base64url");
const sha256 = (value: Uint8Array | string) => createHash("sha256").update(value).digest();
/** User present and user verified; for a registration also "attested credential data included". */
const FLAGS_UP_UV = 0x05;
const FLAG_AT = 0x40;

export class SoftAuthenticator {
  readonly credentialId = randomBytes(16);
  private readonly keys = generateKeyPairSync("ec", { namedCurve: "P-256" });
  private counter = 0;

  constructor(
    private readonly origin: string,
    private readonly rpId = new URL(origin).hostname,
  ) {}

  get id(): string {
    return b64url(this.credentialId);
  }

  /** The public key as COSE (the form the server stores). */
  cosePublicKey(): Uint8Array {
    const jwk = this.keys.publicKey.export({ format: "jwk" });
    return isoCBOR.encode(
      new Map<number, number | Uint8Array>([
        [1, 2],
        [3, -7],
        [-1, 1],
        [-2, Buffer.from(jwk.x!, "base64url")],
        [-3, Buffer.from(jwk.y!, "base64url")],
      ]),
    );
  }

  private authenticatorData(flags: number, attested?: Uint8Array): Buffer {
    const counter = Buffer.alloc(4);
    counter.writeUInt32BE(++this.counter);
    return Buffer.concat([sha256(this.rpId), Buffer.from([flags]), counter, ...(attested ? [attested] : [])]);
  }

  /** What `navigator.credentials.create()` would answer to the options' challenge. */
  register(challenge: string) {
    const idLength = Buffer.alloc(2);
    idLength.writeUInt16BE(this.credentialId.length);
    const attested = Buffer.concat([Buffer.alloc(16), idLength, this.credentialId, this.cosePublicKey()]);
    const authData = this.authenticatorData(FLAGS_UP_UV | FLAG_AT, attested);
    const attestationObject = isoCBOR.encode(
      new Map<string, unknown>([
        ["fmt", "none"],
        ["attStmt", new Map()],
        ["authData", authData],
      ]) as Parameters<typeof isoCBOR.encode>[0],
    );
    const clientDataJSON = JSON.stringify({ type: "webauthn.create", challenge, origin: this.origin, crossOrigin: false });
    return {
      id: this.id,
      rawId: this.id,
      type: "public-key",
      response: { clientDataJSON: b64url(clientDataJSON), attestationObject: b64url(attestationObject), transports: ["internal"] },
      clientExtensionResults: {},
    };
  }

  /** What `navigator.credentials.get()` would answer to the options' challenge. */
  assert(challenge: string) {
    const authData = this.authenticatorData(FLAGS_UP_UV);
    const clientDataJSON = JSON.stringify({ type: "webauthn.get", challenge, origin: this.origin, crossOrigin: false });
    const signature = sign("sha256", Buffer.concat([authData, sha256(clientDataJSON)]), this.keys.privateKey);
    return {
      id: this.id,
      rawId: this.id,
      type: "public-key",
      response: { clientDataJSON: b64url(clientDataJSON), authenticatorData: b64url(authData), signature: b64url(signature) },
      clientExtensionResults: {},
    };
  }
}
