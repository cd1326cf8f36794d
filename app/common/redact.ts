// Secrets that travel in URLs (signed document links, password-reset links, tokens, OAuth and
// sign-in codes and states in a query) must not reach the logs, where anyone who reads them could
// use them. Shared by the console and the server (app/common).

const PATH_TOKENS = /(\/public\/document\/)[^/?#]+/g;
const QUERY_SECRETS =
  /([?&](?:token|access_token|refresh_token|id_token|code|state|password|secret|client_secret|signature|sig|key|api_key|apikey|samlresponse|samlrequest|relaystate)=)[^&#]*/gi;

export const REDACTED = "[redacted]";

export function redactUrl(url: string): string {
  return url.replace(PATH_TOKENS, `$1${REDACTED}`).replace(QUERY_SECRETS, `$1${REDACTED}`);
}
