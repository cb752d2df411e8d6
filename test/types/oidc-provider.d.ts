// oidc-provider ships no type declarations; these cover what test/helpers/oidc-provider.ts uses.
declare module "oidc-provider" {
  import type { IncomingMessage, ServerResponse } from "node:http";

  export type Account = { accountId: string; claims: () => Promise<Record<string, unknown>> };

  export type Interaction = {
    uid: string;
    params: Record<string, unknown>;
    prompt: { name: string };
  };

  export class Provider {
    constructor(issuer: string, configuration: Record<string, unknown>);
    callback(): (req: IncomingMessage, res: ServerResponse) => void;
    interactionDetails(req: IncomingMessage, res: ServerResponse): Promise<Interaction>;
    interactionFinished(req: IncomingMessage, res: ServerResponse, result: Record<string, unknown>): Promise<void>;
    readonly Grant: new (props: { accountId: string; clientId: string }) => {
      addOIDCScope(scope: string): void;
      save(): Promise<string>;
    };
  }

  export default Provider;
}
