import httpntlm from "httpntlm";
import type { Response } from "undici";
import { type GuardedConnection, OutboundRefusedError } from "../../outbound/guard";
import { DmsTargetError } from "../dms-target";
import type { VendorRequest } from "../vendor-http";
import type { SharePointWire } from "./sharepoint-api";

// Windows sign-in (NTLM) to SharePoint Server, the way its web applications accept a service
// account. NTLM authenticates a connection, not a request: the three messages (negotiate,
// challenge, authenticate) must travel on one kept-alive connection, and what follows on that
// connection is signed in. So the client holds one guarded connection per credential, sends
// plainly while it is signed in, and shakes hands again whenever the server asks (a new
// connection, an idle one the server closed). The messages are httpntlm's (NTLMv2); each request
// goes through the vendors' one HTTP layer on that connection (vendor-http.ts, `via`).

export interface WindowsAccount {
  /** "CONTOSO\svc-ecfx", "svc-ecfx@contoso.local" or "svc-ecfx" with the domain given apart. */
  account: string;
  password: string;
  /** The Windows domain when the account does not name one. */
  domain: string;
}

/** The name the handshake announces for this machine. */
const WORKSTATION = "ECFX";

/** The account as NTLM names it: user and domain apart ("CONTOSO\svc" → svc, CONTOSO). */
export function ntlmAccount(settings: WindowsAccount) {
  const account = settings.account.trim();
  const slash = account.indexOf("\\");
  const [domain, username] = slash > 0 ? [account.slice(0, slash), account.slice(slash + 1)] : [account.includes("@") ? "" : settings.domain.trim(), account];
  return { username, domain, password: settings.password, workstation: WORKSTATION };
}

type SignedRequest = Pick<VendorRequest, "method" | "headers" | "body">;

/** Whether a 401 offers NTLM: IIS and Apache list "NTLM" (or "Negotiate", which carries it). */
const offersNtlm = (response: Response) => /\b(NTLM|Negotiate)\b/i.test(response.headers.get("www-authenticate") ?? "");

export class WindowsSignIn {
  private connection?: GuardedConnection;
  private signedIn = false;
  /** One request at a time on the connection: NTLM's handshake must not interleave. */
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly settings: WindowsAccount,
    private readonly origin: URL,
    private readonly wire: SharePointWire,
  ) {}

  /** "CONTOSO\svc-ecfx", as messages name the account. */
  get accountName(): string {
    const { username, domain } = ntlmAccount(this.settings);
    return domain ? `${domain}\\${username}` : username;
  }

  /** Sends one request signed in, shaking hands first when the server asks for it. */
  send(url: URL, init: SignedRequest): Promise<Response> {
    const next = this.queue.then(() => this.signedSend(url, init));
    this.queue = next.then(
      // The answer must be read before the next request may use the connection.
      (response) =>
        response
          .clone()
          .arrayBuffer()
          .catch(() => undefined),
      () => undefined,
    );
    return next;
  }

  /** Signs in now on a fresh connection: the connection test's first step. */
  async signIn(url: URL): Promise<void> {
    await this.reset();
    const response = await this.send(url, { method: "GET", headers: { accept: "application/json;odata=nometadata" } });
    await response.body?.cancel();
    if (response.status === 401) throw this.refused();
  }

  async close(): Promise<void> {
    await this.reset();
  }

  private async reset(): Promise<void> {
    this.signedIn = false;
    const open = this.connection;
    this.connection = undefined;
    await open?.close().catch(() => undefined);
  }

  private refused(): DmsTargetError {
    return new DmsTargetError(this.wire.http.kind, `Windows sign-in failed: SharePoint refused the account ${this.accountName}`, false);
  }

  private async signedSend(url: URL, init: SignedRequest): Promise<Response> {
    if (this.signedIn) {
      const plain = await this.fetch(url, init);
      if (plain.status !== 401) return plain;
      await plain.arrayBuffer().catch(() => undefined);
      this.signedIn = false;
    }
    const account = ntlmAccount(this.settings);
    const headers = { ...init.headers };
    // Negotiate without the body: the server answers it with its challenge before reading one.
    const challenge = await this.fetch(url, { method: init.method, headers: { ...headers, authorization: httpntlm.ntlm.createType1Message(account) } });
    await challenge.arrayBuffer().catch(() => undefined);
    if (challenge.status !== 401) {
      throw new DmsTargetError(
        this.wire.http.kind,
        `Windows sign-in failed: SharePoint answered HTTP ${challenge.status} instead of an NTLM challenge`,
        challenge.status >= 500,
      );
    }
    const offered = (challenge.headers.get("www-authenticate") ?? "")
      .split(/,\s*(?=NTLM|Negotiate)/i)
      .find((value) => /^(NTLM|Negotiate) \S/i.test(value.trim()));
    if (!offered) {
      throw new DmsTargetError(
        this.wire.http.kind,
        offersNtlm(challenge)
          ? `Windows sign-in failed: SharePoint gave no NTLM challenge for the account ${this.accountName}`
          : "Windows sign-in failed: this SharePoint address does not accept Windows (NTLM) sign-in",
        false,
      );
    }
    let parseError: Error | undefined;
    const type2 = httpntlm.ntlm.parseType2Message(offered.trim().replace(/^Negotiate /i, "NTLM "), (error) => (parseError = error));
    if (!type2) throw new DmsTargetError(this.wire.http.kind, `Windows sign-in failed: ${parseError?.message ?? "the challenge could not be read"}`, false);
    const answer = await this.fetch(url, { ...init, headers: { ...headers, authorization: httpntlm.ntlm.createType3Message(type2, account) } });
    if (answer.status === 401) {
      await answer.body?.cancel();
      throw this.refused();
    }
    this.signedIn = true;
    return answer;
  }

  private async fetch(url: URL, init: SignedRequest): Promise<Response> {
    const { http, ctx, purpose } = this.wire;
    try {
      this.connection ??= ctx.guard.connection(this.origin, purpose);
      return await http.send(ctx, purpose, url, { ...init, via: this.connection });
    } catch (error) {
      // A connection that failed is not reused: the next request opens another and signs in again.
      await this.reset();
      // The guard refuses the origin when the connection is opened, before the layer is reached.
      if (error instanceof OutboundRefusedError)
        throw new DmsTargetError(http.kind, `SharePoint may not be reached at ${url.host}: ${error.message}`, false, { cause: error });
      throw error;
    }
  }
}
