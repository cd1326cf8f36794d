import type { Config } from "../config";
import { OutboundGuard, type OutboundPurpose } from "../outbound/guard";

// An identity provider's metadata (SAML) or discovery and keys (OpenID Connect) come from the
// address the firm typed: that URL's host only, https and public, unless the operator named the
// origin (ECFX_SSO_ALLOWED_ORIGINS, a local identity provider of tests and the demo).

const guards = new WeakMap<Config, OutboundGuard>();

export function ssoGuard(config: Config): OutboundGuard {
  let guard = guards.get(config);
  if (!guard) {
    guard = new OutboundGuard({ allowedOrigins: config.ECFX_SSO_ALLOWED_ORIGINS, allowedRanges: config.ECFX_OUTBOUND_ALLOW });
    guards.set(config, guard);
  }
  return guard;
}

/** The purpose of calls to one identity provider: the host of the address the firm gave. */
export function identityProviderPurpose(url: URL): OutboundPurpose {
  const own = url.hostname
    .replace(/^\[|\]$/g, "")
    .replace(/\.$/, "")
    .toLowerCase();
  return { name: "identity provider", hostAllowed: (host) => host === own };
}
