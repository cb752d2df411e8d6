// The OpenID Connect client for "Continue with Google" (docs/decisions.md, Google sign-in), on
// openid-client's functional API. The issuer's metadata is discovered on first use rather than at
// start, so the portal starts and serves everything else while the issuer is unreachable.
import * as oidc from "openid-client";
import type { Config } from "../config.ts";

export const GOOGLE_CALLBACK_PATH = "/api/auth/google/callback";
const SCOPE = "openid email profile";

/** What the start route keeps (in a short-lived cookie) for the callback to check. */
export type AuthorizationChecks = { state: string; nonce: string; codeVerifier: string };

/** The identity an ID token vouches for, after the checks. */
type GoogleIdentity = { subject: string; email: string; emailVerified: boolean; name: string | null };

type OidcClient = {
  redirectUri: string;
  /** The provider's authorization URL and the checks the callback must hold it to. */
  startAuthorization(): Promise<{ url: URL; checks: AuthorizationChecks }>;
  /** Exchanges the code of the callback URL (PKCE, state and nonce checked) and reads the ID token. */
  finishAuthorization(callbackUrl: URL, checks: AuthorizationChecks): Promise<GoogleIdentity>;
};

/** The configured client, or null when no client id is set (Google sign-in is off). */
export function createOidcClient(config: Config): OidcClient | null {
  const { issuer, clientId, clientSecret } = config.oidc;
  if (!clientId) return null;
  const issuerUrl = new URL(issuer);
  const redirectUri = new URL(GOOGLE_CALLBACK_PATH, config.publicUrl).href;
  let discovered: Promise<oidc.Configuration> | null = null;

  const configuration = () => {
    discovered ??= oidc
      .discovery(issuerUrl, clientId, clientSecret, undefined, {
        execute: isLoopbackHttp(issuerUrl) ? [oidc.allowInsecureRequests] : [],
        timeout: 10,
      })
      .catch((err: unknown) => {
        // Forget a failed discovery so the next sign-in tries again.
        discovered = null;
        throw err;
      });
    return discovered;
  };

  return {
    redirectUri,
    async startAuthorization() {
      const config = await configuration();
      const checks: AuthorizationChecks = {
        state: oidc.randomState(),
        nonce: oidc.randomNonce(),
        codeVerifier: oidc.randomPKCECodeVerifier(),
      };
      const url = oidc.buildAuthorizationUrl(config, {
        redirect_uri: redirectUri,
        scope: SCOPE,
        response_type: "code",
        code_challenge: await oidc.calculatePKCECodeChallenge(checks.codeVerifier),
        code_challenge_method: "S256",
        state: checks.state,
        nonce: checks.nonce,
      });
      return { url, checks };
    },
    async finishAuthorization(callbackUrl, checks) {
      const config = await configuration();
      const tokens = await oidc.authorizationCodeGrant(config, callbackUrl, {
        pkceCodeVerifier: checks.codeVerifier,
        expectedState: checks.state,
        expectedNonce: checks.nonce,
        idTokenExpected: true,
      });
      const claims = tokens.claims();
      if (!claims) throw new Error("The provider returned no ID token");
      return {
        subject: claims.sub,
        email: typeof claims.email === "string" ? claims.email : "",
        // Only a real boolean true counts; Google sends a boolean, some providers a string.
        emailVerified: claims.email_verified === true,
        name: typeof claims.name === "string" && claims.name.trim() !== "" ? claims.name.trim() : null,
      };
    },
  };
}

/** Plain http is allowed only for an issuer on this machine (the tests' provider), never otherwise. */
function isLoopbackHttp(url: URL): boolean {
  return url.protocol === "http:" && ["127.0.0.1", "localhost", "[::1]"].includes(url.hostname);
}
