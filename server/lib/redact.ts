// Secrets that travel in URLs (signed document links, password-reset links, tokens in a query)
// must not reach access logs, where anyone who reads the logs could use them.

const PATH_TOKENS = /(\/public\/document\/)[^/?#]+/g;
const QUERY_TOKENS = /([?&](?:token|access_token|refresh_token|code)=)[^&#]*/gi;

export const REDACTED = "[redacted]";

export function redactUrl(url: string): string {
  return url.replace(PATH_TOKENS, `$1${REDACTED}`).replace(QUERY_TOKENS, `$1${REDACTED}`);
}
