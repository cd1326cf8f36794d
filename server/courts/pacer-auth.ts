import { RetryableFetchError } from "./connector";
import { readBoundedBody } from "../lib/bounded-body";
import type { ProviderFetch } from "./court-session";

// PACER's Authentication API (PACER Authentication API User Guide, pacer.uscourts.gov): a POST of
// JSON {loginId, password, clientCode?, redactFlag?} to /services/cso-auth answers
// {nextGenCSO, loginResult, errorDescription}; loginResult "0" is a sign-in (errorDescription may
// still carry a notice), any other value a refusal in errorDescription's words. The token is then
// sent to the courts as the NextGenCSO cookie, with the client code as PacerClientCode.

/** PACER's production sign-in host; qa-login.uscourts.gov is its test environment. */
export const PACER_AUTH_URL = "https://pacer.login.uscourts.gov";
export const CSO_AUTH_PATH = "/services/cso-auth";
export const CSO_LOGOUT_PATH = "/services/cso-logout";
/** The cookie names CM/ECF reads. */
export const NEXT_GEN_CSO_COOKIE = "NextGenCSO";
export const CLIENT_CODE_COOKIE = "PacerClientCode";

/** The answer of cso-auth is a few hundred bytes; anything past this is no answer of PACER's. */
const MAX_ANSWER_BYTES = 64 * 1024;

export interface PacerAccount {
  loginId: string;
  password: string;
  clientCode?: string | null;
  /** A filer's account signs in only with redactFlag "1": its holder complies with the redaction rules. */
  redactFlag: boolean;
}

export type PacerAnswer = { kind: "signed-in"; token: string; notice: string } | { kind: "refused"; loginResult: string; description: string };

/** PACER is busy or did not answer as its contract says: the fetch is tried again later. */
export class PacerUnavailableError extends RetryableFetchError {}

/** Signs in once; never retries (PACER asks integrators not to sign in more than needed). */
export async function pacerSignIn(fetch: ProviderFetch, authUrl: string, account: PacerAccount): Promise<PacerAnswer> {
  const body: Record<string, string> = { loginId: account.loginId, password: account.password };
  if (account.clientCode) body.clientCode = account.clientCode;
  if (account.redactFlag) body.redactFlag = "1";
  const response = await fetch(new URL(CSO_AUTH_PATH, authUrl), {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json" },
    body: JSON.stringify(body),
  });
  if (response.status === 429 || response.status >= 500) {
    await response.body?.cancel();
    throw new PacerUnavailableError(`PACER answered ${response.status}`);
  }
  const bytes = await readBoundedBody(response, MAX_ANSWER_BYTES, () => new PacerUnavailableError("PACER's answer is larger than a sign-in answer"));
  let answer: { nextGenCSO?: unknown; loginResult?: unknown; errorDescription?: unknown };
  try {
    answer = JSON.parse(bytes.toString("utf8")) as typeof answer;
  } catch {
    if (!response.ok) return { kind: "refused", loginResult: String(response.status), description: bytes.toString("utf8").slice(0, 300) };
    throw new PacerUnavailableError("PACER's answer is not JSON");
  }
  const loginResult = typeof answer.loginResult === "string" || typeof answer.loginResult === "number" ? String(answer.loginResult) : "";
  const description = typeof answer.errorDescription === "string" ? answer.errorDescription.slice(0, 500) : "";
  if (loginResult === "0" && typeof answer.nextGenCSO === "string" && answer.nextGenCSO !== "") {
    return { kind: "signed-in", token: answer.nextGenCSO, notice: description };
  }
  return { kind: "refused", loginResult: loginResult || String(response.status), description: description || `HTTP ${response.status}` };
}

/** The Cookie header of a court request signed in with the token. */
export function pacerCookie(token: string, clientCode?: string | null): string {
  const cookies = [`${NEXT_GEN_CSO_COOKIE}=${token}`];
  if (clientCode) cookies.push(`${CLIENT_CODE_COOKIE}=${clientCode}`);
  return cookies.join("; ");
}
