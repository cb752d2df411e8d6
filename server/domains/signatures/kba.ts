// Knowledge-based authentication (KBA) for remote Form 8879 signing (IRS Publication 1345: an ERO
// must verify a remote taxpayer's identity through a third party's KBA before an electronic
// signature). No provider ships with the portal: `KBA_PROVIDER` names one registered in
// KBA_PROVIDERS below, and without it a Form 8879 request says remote signing needs one, and the
// firm records an in-person signature with photo ID instead (docs/decisions.md, "Signatures").
//
// The contract a provider implements: start() opens a check for a person (the provider asks its own
// questions, built from credit-bureau data, in its own page or widget) and answers a reference and
// where the signer goes; result() answers, for that reference, whether the person passed, with the
// provider's own reference kept on the signer (identity_result) for the certificate page. The
// portal never sees the questions, the answers or the person's SSN.

export type KbaPerson = { name: string; email: string };

export type KbaStart = { reference: string; url: string; expires_at: Date };

export type KbaResult = { passed: boolean; reference: string; detail: string };

export interface KbaProvider {
  readonly name: string;
  start(person: KbaPerson): Promise<KbaStart>;
  result(reference: string): Promise<KbaResult>;
}

/**
 * Providers this build knows, by the name KBA_PROVIDER gives; a deployment adds its provider here
 * (its own settings, an API key say, read from the environment by its factory).
 */
const KBA_PROVIDERS: Record<string, (env: NodeJS.ProcessEnv) => KbaProvider> = {};

/** The configured provider (config.signing.kbaProvider, from KBA_PROVIDER), or null: none by default. */
export function configuredKbaProvider(config: { signing: { kbaProvider?: string } }): KbaProvider | null {
  const name = config.signing.kbaProvider?.trim();
  if (!name) return null;
  const make = KBA_PROVIDERS[name];
  if (!make) throw new Error(`KBA_PROVIDER names "${name}", which this build does not know (server/domains/signatures/kba.ts)`);
  return make(process.env);
}
