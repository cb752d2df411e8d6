/*
 * A real OpenID Connect provider (`oidc-provider`) on loopback, standing in for Google in the
 * sign-in tests. Like Google it puts email, email_verified and name in the ID token of the code
 * flow and requires PKCE. Its login page is a plain form (an email field, "Sign in" and "Cancel")
 * that a test drives with HTTP or a browser: signing in also grants consent; Cancel answers
 * access_denied, as Google does when the user declines.
 */
import { generateKeyPairSync, randomBytes } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import Provider, { type Account } from "oidc-provider";

export type TestAccount = { sub: string; email: string; email_verified: boolean; name: string };

export type TestOidcProvider = {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** Accounts by email; tests may add more while the provider runs. */
  accounts: Map<string, TestAccount>;
  close: () => Promise<void>;
};

/** The app's environment for a provider that will listen on `port` (see startOidcProvider). */
export function oidcEnv(port: number, clientId = "portal-test-client", clientSecret = "portal-test-secret") {
  return { OIDC_ISSUER: `http://127.0.0.1:${port}`, OIDC_CLIENT_ID: clientId, OIDC_CLIENT_SECRET: clientSecret };
}

/**
 * Starts the provider on `port` (0 for any), with one confidential client allowed to redirect to
 * `redirectUri`. The app reads its issuer lazily, so a test can start the app first with
 * `oidcEnv(port)` and then the provider with the app's callback URL.
 */
export async function startOidcProvider(opts: {
  port?: number;
  redirectUri: string;
  accounts?: TestAccount[];
  clientId?: string;
  clientSecret?: string;
}): Promise<TestOidcProvider> {
  const env = oidcEnv(opts.port ?? 0, opts.clientId, opts.clientSecret);
  const clientId = env.OIDC_CLIENT_ID;
  const clientSecret = env.OIDC_CLIENT_SECRET;
  const accounts = new Map((opts.accounts ?? []).map((a) => [a.email.toLowerCase(), a]));
  const accountBySub = (sub: string) => [...accounts.values()].find((a) => a.sub === sub);

  const server = http.createServer();
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(opts.port ?? 0, "127.0.0.1", () => resolve());
  });
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const signingKey = generateKeyPairSync("rsa", { modulusLength: 2048 }).privateKey.export({ format: "jwk" });
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: clientId,
        client_secret: clientSecret,
        redirect_uris: [opts.redirectUri],
        grant_types: ["authorization_code"],
        response_types: ["code"],
        token_endpoint_auth_method: "client_secret_post",
      },
    ],
    jwks: { keys: [{ ...signingKey, use: "sig", alg: "RS256", kid: "test-key" }] },
    cookies: { keys: [randomBytes(32).toString("hex")] },
    claims: { openid: ["sub"], email: ["email", "email_verified"], profile: ["name"] },
    conformIdTokenClaims: false,
    pkce: { required: () => true },
    features: { devInteractions: { enabled: false } },
    interactions: { url: (_ctx: unknown, interaction: { uid: string }) => `/interaction/${interaction.uid}` },
    findAccount: async (_ctx: unknown, sub: string): Promise<Account | undefined> => {
      const account = accountBySub(sub);
      if (!account) return undefined;
      return { accountId: sub, claims: async () => ({ ...account }) };
    },
    ttl: { AccessToken: 600, AuthorizationCode: 60, IdToken: 600, Interaction: 600, Session: 600, Grant: 600 },
    renderError: async (ctx: { type: string; body: unknown }, out: Record<string, unknown>) => {
      ctx.type = "json";
      ctx.body = out;
    },
  });
  const providerHandler = provider.callback();

  server.on("request", (req, res) => {
    const match = /^\/interaction\/([\w-]+)(\/login|\/abort)?$/.exec(req.url ?? "");
    if (!match) return providerHandler(req, res);
    handleInteraction(provider, accounts, req, res, match[2]).catch((err: unknown) => {
      res.statusCode = 400;
      res.setHeader("Content-Type", "text/plain");
      res.end(`Interaction failed: ${err instanceof Error ? err.message : String(err)}`);
    });
  });

  return {
    issuer,
    clientId,
    clientSecret,
    accounts,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

async function handleInteraction(
  provider: Provider,
  accounts: Map<string, TestAccount>,
  req: http.IncomingMessage,
  res: http.ServerResponse,
  action: string | undefined,
): Promise<void> {
  const interaction = await provider.interactionDetails(req, res);
  if (req.method === "GET" && !action) {
    res.setHeader("Content-Type", "text/html; charset=utf-8");
    res.end(loginPage(interaction.uid));
    return;
  }
  if (req.method !== "POST") throw new Error("method not allowed");
  if (action === "/abort") {
    await provider.interactionFinished(req, res, {
      error: "access_denied",
      error_description: "The user declined to sign in",
    });
    return;
  }
  const form = new URLSearchParams(await readBody(req));
  const account = accounts.get((form.get("email") ?? "").toLowerCase());
  if (!account) {
    res.statusCode = 200;
    res.setHeader("Content-Type", "text/html; charset=utf-8");
    res.end(loginPage(interaction.uid, "No account with that email"));
    return;
  }
  const grant = new provider.Grant({ accountId: account.sub, clientId: String(interaction.params.client_id) });
  grant.addOIDCScope(String(interaction.params.scope));
  const grantId = await grant.save();
  await provider.interactionFinished(req, res, { login: { accountId: account.sub }, consent: { grantId } });
}

function loginPage(uid: string, error?: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><link rel="icon" href="data:,"><title>Test provider sign-in</title></head>
<body>
  <h1>Sign in to the test provider</h1>
  ${error ? `<p role="alert">${error}</p>` : ""}
  <form method="post" action="/interaction/${uid}/login">
    <label>Email <input type="email" name="email" autocomplete="email"></label>
    <button type="submit">Sign in</button>
  </form>
  <form method="post" action="/interaction/${uid}/abort">
    <button type="submit">Cancel</button>
  </form>
</body></html>`;
}

function readBody(req: http.IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let body = "";
    req.setEncoding("utf8");
    req.on("data", (chunk: string) => {
      body += chunk;
    });
    req.on("end", () => resolve(body));
    req.on("error", reject);
  });
}
