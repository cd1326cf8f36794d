/**
 * The console's Content-Security-Policy: scripts only from the console itself or inline with this
 * response's nonce (Remix's hydration data, Mantine's colour-scheme script). Styles allow inline
 * because Mantine sets style attributes and Monaco injects style elements; a nonce would switch
 * 'unsafe-inline' off for them. Monaco runs its workers from blob: URLs.
 */
export function contentSecurityPolicy(nonce: string, formTargets: readonly string[] = paymentPages()): string {
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}'`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self' data:",
    "connect-src 'self'",
    "worker-src 'self' blob:",
    "frame-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    // Pay is a form post answered with a redirect to the payment provider's hosted page (decision 112).
    `form-action 'self'${formTargets.map((t) => ` ${t}`).join("")}`,
    "frame-ancestors 'self'",
  ].join("; ");
}

/** Stripe's hosted Checkout, and the origin the operator sends Stripe's calls to instead (a local server in tests). */
export function paymentPages(env: NodeJS.ProcessEnv = process.env): string[] {
  const pages = ["https://checkout.stripe.com"];
  try {
    if (env.ECFX_STRIPE_BASE_URL) pages.push(new URL(env.ECFX_STRIPE_BASE_URL).origin);
  } catch {
    // The API refuses to start with a malformed value; the console keeps Stripe's own page.
  }
  return pages;
}

/**
 * Headers every console answer carries unless its route set its own: no sniffing, no copy in any
 * cache (pages and data change with who is signed in; the firm logo says otherwise), and the CSP
 * on pages. Copied into a new Response because a proxied API answer has immutable headers.
 */
export function withSecurityHeaders(response: Response, nonce: string): Response {
  const headers = new Headers(response.headers);
  if (!headers.has("X-Content-Type-Options")) headers.set("X-Content-Type-Options", "nosniff");
  if (!headers.has("Cache-Control")) headers.set("Cache-Control", "no-store");
  if ((headers.get("Content-Type") ?? "").startsWith("text/html")) headers.set("Content-Security-Policy", contentSecurityPolicy(nonce));
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
}
