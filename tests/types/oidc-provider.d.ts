// oidc-provider ships no types; the OpenID Connect tests use this much of it.
declare module "oidc-provider" {
  import type { Server } from "node:http";

  interface Account {
    accountId: string;
    claims(): Record<string, unknown> | Promise<Record<string, unknown>>;
  }

  export default class Provider {
    constructor(
      issuer: string,
      configuration: {
        clients?: Record<string, unknown>[];
        claims?: Record<string, string[]>;
        findAccount?: (ctx: unknown, id: string) => Account | Promise<Account>;
        pkce?: { required?: () => boolean };
        jwks?: { keys: Record<string, unknown>[] };
      },
    );
    listen(port: number): Server;
  }
}
