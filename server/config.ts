import path from "node:path";
import { z } from "zod";

const optionalText = z.preprocess((v) => (v === "" ? undefined : v), z.string().optional());
const optionalUrl = z.preprocess((v) => (v === "" ? undefined : v), z.url().optional());

const envSchema = z
  .object({
    NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
    HOST: z.string().default("0.0.0.0"),
    PORT: z.coerce.number().int().min(0).max(65535).default(3000),
    DATABASE_URL: optionalUrl,
    DATA_DIR: z.string().default("./data"),
    PUBLIC_URL: optionalUrl,
    SMTP_URL: optionalUrl,
    MAIL_FROM: z.string().default("Client Portal <no-reply@localhost>"),
    FIRM_EMAIL: z.preprocess((v) => (v === "" ? undefined : v), z.email().optional()),
    NOTARY_URL: z.url().default("https://www.nationalnotary.org/"),
    // The firm's wall clock: its opening hours and days off are on it, requested appointments are
    // placed on it, and times in emails name it.
    FIRM_TIME_ZONE: z.preprocess(
      (v) => (v === "" ? undefined : v),
      z.string().default("America/Chicago").refine(isTimeZone, "must be an IANA time zone such as America/New_York"),
    ),
    OIDC_ISSUER: z.url().default("https://accounts.google.com"),
    OIDC_CLIENT_ID: optionalText,
    OIDC_CLIENT_SECRET: optionalText,
    // Set: authenticator-app secrets are stored encrypted (AES-256-GCM) with this key, 32 bytes as
    // base64 or hex. Keep it apart from database backups.
    TOTP_ENCRYPTION_KEY: z.preprocess(
      (v) => (v === "" ? undefined : v),
      z
        .string()
        .optional()
        .refine((v) => v === undefined || parseKey(v) !== null, "must be 32 bytes as base64 or hex (openssl rand -base64 32)"),
    ),
    // Documents are stored encrypted (AES-256-GCM, a data key per object) and those keys are
    // wrapped with this one, 32 bytes as base64 or hex. Unset: a key generated into
    // DATA_DIR/document-encryption.key (refused in production with S3_BUCKET). During a rotation
    // (npm run rotate-document-key) the key being replaced goes in DOCUMENT_ENCRYPTION_KEY_PREVIOUS.
    DOCUMENT_ENCRYPTION_KEY: z.preprocess(
      (v) => (v === "" ? undefined : v),
      z
        .string()
        .optional()
        .refine((v) => v === undefined || parseKey(v) !== null, "must be 32 bytes as base64 or hex (openssl rand -base64 32)"),
    ),
    DOCUMENT_ENCRYPTION_KEY_PREVIOUS: z.preprocess(
      (v) => (v === "" ? undefined : v),
      z
        .string()
        .optional()
        .refine((v) => v === undefined || parseKey(v) !== null, "must be 32 bytes as base64 or hex (openssl rand -base64 32)"),
    ),
    // `npm run backup` encrypts its archives with this key and `npm run restore` opens them, 32 bytes
    // as base64 or hex. The app itself never needs it: keep it where the archives are not.
    BACKUP_ENCRYPTION_KEY: z.preprocess(
      (v) => (v === "" ? undefined : v),
      z
        .string()
        .optional()
        .refine((v) => v === undefined || parseKey(v) !== null, "must be 32 bytes as base64 or hex (openssl rand -base64 32)"),
    ),
    // Passkeys belong to this domain: PUBLIC_URL's host unless set (a parent domain of it, to share
    // passkeys across subdomains). It can never change without every passkey stopping to work.
    WEBAUTHN_RP_ID: optionalText,
    // The firm's certificate that seals signed PDFs (signatures/certificate.ts): a PKCS#12 file, as
    // a path or as base64, and its password. Unset: a self-signed one is made and kept in the database.
    SIGNING_P12: optionalText,
    SIGNING_P12_PASSWORD: optionalText,
    // The KBA provider for remote Form 8879 signing (signatures/kba.ts); unset: none, sign in person.
    KBA_PROVIDER: optionalText,
    LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
    // MB as 1024 * 1024 bytes: the default 5120 is shown to clients as "5 GB".
    CLIENT_QUOTA_MB: z.coerce
      .number({ error: "must be a whole number of megabytes" })
      .int("must be a whole number of megabytes")
      .min(1, "must be at least 1 megabyte")
      .default(5120),
    MAX_CONNECTIONS: z.coerce.number({ error: "must be a whole number" }).int("must be a whole number").min(1, "must be at least 1").default(4096),
    // On SIGTERM: how long requests under way (a 10 MB upload over a slow line) may take to finish.
    SHUTDOWN_GRACE_SECONDS: z.coerce
      .number({ error: "must be a whole number of seconds" })
      .int("must be a whole number of seconds")
      .min(1, "must be at least 1 second")
      .max(600, "must be at most 600 seconds")
      .default(30),
    // Unset: 128 when clients connect directly, off behind a reverse proxy (TRUST_PROXY > 0), where
    // every connection comes from the proxy's address and the proxy must cap clients itself.
    MAX_CONNECTIONS_PER_IP: z.preprocess(
      (v) => (v === "" ? undefined : v),
      z.coerce
        .number({ error: "must be a whole number (0 for no cap)" })
        .int("must be a whole number (0 for no cap)")
        .min(0, "must be a whole number (0 for no cap)")
        .optional(),
    ),
    // A hop count, never `true`: Express would then take the left-most X-Forwarded-For entry,
    // which the client writes itself, and anyone could pick the address the rate limits count.
    TRUST_PROXY: z.preprocess(
      (v) => (v === "" ? undefined : v),
      z.coerce
        .number({ error: "must be the number of reverse proxies in front of the app (0 for none)" })
        .int("must be the number of reverse proxies in front of the app (0 for none)")
        .min(0, "must be the number of reverse proxies in front of the app (0 for none)")
        .default(0),
    ),
    // Set: documents live in this S3 bucket (shared by every instance); unset: under DATA_DIR.
    S3_BUCKET: optionalText,
    S3_ENDPOINT: optionalUrl,
    S3_REGION: z.preprocess((v) => (v === "" ? undefined : v), z.string().default("us-east-1")),
    S3_ACCESS_KEY_ID: optionalText,
    S3_SECRET_ACCESS_KEY: optionalText,
    S3_FORCE_PATH_STYLE: z.preprocess(
      (v) => (v === "" ? undefined : v),
      z.enum(["true", "false"], { error: "must be true or false" }).default("false"),
    ),
  })
  .refine((e) => !e.S3_ACCESS_KEY_ID === !e.S3_SECRET_ACCESS_KEY, {
    path: ["S3_SECRET_ACCESS_KEY"],
    error: "S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY go together: set both or neither",
  });

export type Config = ReturnType<typeof loadConfig>;

/** A 256-bit key written as 64 hex digits or as base64. */
export function parseKey(value: string): Buffer | null {
  const bytes = /^[0-9a-f]{64}$/i.test(value) ? Buffer.from(value, "hex") : Buffer.from(value, "base64");
  return bytes.length === 32 ? bytes : null;
}

// An IANA name as the tz database spells it ("America/Chicago", "UTC"). Intl alone also takes
// "america/chicago" and abbreviations such as "EST", which it maps to a zone of its own choosing.
const IANA_NAME = /^(UTC|[A-Z][A-Za-z_-]*(\/[A-Za-z0-9_+-]+)+)$/;

function isTimeZone(name: string): boolean {
  if (!IANA_NAME.test(name)) return false;
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

/** Parses the environment once; a bad value stops the start with a message naming the variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env) {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `  ${i.path.join(".")}: ${i.message}`).join("\n");
    throw new Error(`Invalid configuration in the environment:\n${problems}`);
  }
  const e = parsed.data;
  const publicUrl = new URL(e.PUBLIC_URL ?? `http://localhost:${e.PORT}`);
  const rpId = e.WEBAUTHN_RP_ID ?? publicUrl.hostname;
  if (publicUrl.hostname !== rpId && !publicUrl.hostname.endsWith(`.${rpId}`)) {
    throw new Error(
      `Invalid configuration in the environment:\n  WEBAUTHN_RP_ID: must be PUBLIC_URL's host (${publicUrl.hostname}) or a parent domain of it`,
    );
  }
  return {
    env: e.NODE_ENV,
    host: e.HOST,
    port: e.PORT,
    databaseUrl: e.DATABASE_URL,
    dataDir: path.resolve(e.DATA_DIR),
    publicUrl: publicUrl.origin,
    secureCookies: publicUrl.protocol === "https:",
    smtpUrl: e.SMTP_URL,
    mailFrom: e.MAIL_FROM,
    firmEmail: e.FIRM_EMAIL,
    notaryUrl: e.NOTARY_URL,
    firmTimeZone: e.FIRM_TIME_ZONE,
    oidc: { issuer: e.OIDC_ISSUER, clientId: e.OIDC_CLIENT_ID, clientSecret: e.OIDC_CLIENT_SECRET },
    totpEncryptionKey: e.TOTP_ENCRYPTION_KEY ? parseKey(e.TOTP_ENCRYPTION_KEY) : null,
    documentEncryptionKey: e.DOCUMENT_ENCRYPTION_KEY ? parseKey(e.DOCUMENT_ENCRYPTION_KEY) : null,
    documentEncryptionKeyPrevious: e.DOCUMENT_ENCRYPTION_KEY_PREVIOUS ? parseKey(e.DOCUMENT_ENCRYPTION_KEY_PREVIOUS) : null,
    backupEncryptionKey: e.BACKUP_ENCRYPTION_KEY ? parseKey(e.BACKUP_ENCRYPTION_KEY) : null,
    /** WebAuthn's relying party: passkeys are made for rpId and answered only from origin (PUBLIC_URL). */
    webauthn: { rpId, origin: publicUrl.origin },
    signing: { p12: e.SIGNING_P12, password: e.SIGNING_P12_PASSWORD ?? "", kbaProvider: e.KBA_PROVIDER },
    logLevel: e.LOG_LEVEL,
    clientQuotaMb: e.CLIENT_QUOTA_MB,
    trustProxy: e.TRUST_PROXY,
    maxConnections: e.MAX_CONNECTIONS,
    shutdownGraceMs: e.SHUTDOWN_GRACE_SECONDS * 1000,
    maxConnectionsPerIp: e.MAX_CONNECTIONS_PER_IP ?? (e.TRUST_PROXY > 0 ? 0 : 128),
    s3: e.S3_BUCKET
      ? {
          bucket: e.S3_BUCKET,
          endpoint: e.S3_ENDPOINT,
          region: e.S3_REGION,
          accessKeyId: e.S3_ACCESS_KEY_ID,
          secretAccessKey: e.S3_SECRET_ACCESS_KEY,
          forcePathStyle: e.S3_FORCE_PATH_STYLE === "true",
        }
      : undefined,
  };
}
