import fs from "node:fs";
import { BlockList, type Socket, isIP } from "node:net";
import { SMTPServer, type SMTPServerAddress, type SMTPServerOptions } from "smtp-server";
import type { ServerContext } from "../context";
import { inboxOf, receiveMessage } from "./receive";
import { logger } from "../../app/common/logger";

export interface SmtpOptions {
  port: number;
  host: string;
  /** PEM files for STARTTLS; without them the listener offers no TLS. */
  tls?: { key: string; cert: string };
  /** user → password; when given, clients must authenticate. */
  users?: Map<string, string>;
  /** Addresses or CIDR ranges allowed to connect; empty means everyone. */
  allow?: string[];
  /** Connections served at once; more are told to come back later (421). */
  maxConnections?: number;
  /** A client silent this long is disconnected. */
  idleTimeoutMs?: number;
  /** No connection lasts longer, however slowly it keeps sending (a trickling client). */
  sessionTimeoutMs?: number;
}

const DEFAULT_MAX_CONNECTIONS = 100;
const DEFAULT_IDLE_TIMEOUT_MS = 60_000;
const DEFAULT_SESSION_TIMEOUT_MS = 10 * 60_000;

class SmtpError extends Error {
  constructor(
    message: string,
    readonly responseCode: number,
  ) {
    super(message);
  }
}

function allowList(entries: string[]): BlockList | null {
  if (entries.length === 0) return null;
  const list = new BlockList();
  for (const entry of entries) {
    const [address, prefix] = entry.split("/");
    const family = isIP(address ?? "") === 6 ? "ipv6" : "ipv4";
    if (prefix) list.addSubnet(address!, Number(prefix), family);
    else list.addAddress(address!, family);
  }
  return list;
}

function clientAddress(remote: string): { address: string; family: "ipv4" | "ipv6" } {
  const v4 = remote.replace(/^::ffff:/, "");
  return isIP(v4) === 4 ? { address: v4, family: "ipv4" } : { address: remote, family: "ipv6" };
}

/** The largest maximum e-mail size of any firm, 0 when some firm sets none (no limit). */
async function largestFirmMaximum(ctx: ServerContext): Promise<number> {
  const rows = await ctx.database.db.selectFrom("firm").select("max_email_attachment_size").execute();
  const limits = rows.map((r) => Number(r.max_email_attachment_size ?? 0));
  return limits.length === 0 || limits.some((n) => n <= 0) ? 0 : Math.max(...limits);
}

type Inbox = NonNullable<Awaited<ReturnType<typeof inboxOf>>>;

/**
 * The inboxes of this transaction's recipients (RSET and a new MAIL FROM start a new envelope),
 * as RCPT found them, each firm once.
 */
async function inboxesOfRecipients(ctx: ServerContext, recipients: SMTPServerAddress[], found: WeakMap<SMTPServerAddress, Inbox>): Promise<Inbox[]> {
  const firms = new Map<number, Inbox>();
  for (const recipient of recipients) {
    const inbox = found.get(recipient) ?? (await inboxOf(ctx, recipient.address));
    if (inbox) firms.set(inbox.firmId, inbox);
  }
  return [...firms.values()];
}

/**
 * The SMTP inbox: mail to a firm's inbox address becomes an inbox item, committed before the
 * 250 reply. Unknown recipients are refused at RCPT; a message over the firm's size limit gets 552.
 */
export function createSmtpListener(ctx: ServerContext, options: SmtpOptions): SMTPServer {
  const allowed = allowList(options.allow ?? []);
  const found = new WeakMap<SMTPServerAddress, Inbox>();
  const log = logger("smtp");

  const config: SMTPServerOptions = {
    name: "ecfx",
    banner: "ECFX court notice inbox",
    logger: false,
    maxClients: options.maxConnections ?? DEFAULT_MAX_CONNECTIONS,
    socketTimeout: options.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS,
    disabledCommands: options.tls ? [] : ["STARTTLS"],
    authOptional: !options.users,
    allowInsecureAuth: !options.tls,
    ...(options.tls ? { key: fs.readFileSync(options.tls.key), cert: fs.readFileSync(options.tls.cert) } : {}),
    onConnect(session, callback) {
      if (allowed) {
        const { address, family } = clientAddress(session.remoteAddress);
        if (!allowed.check(address, family)) return callback(new SmtpError("Connections from this address are not accepted", 554));
      }
      // SIZE in the EHLO answer tells senders the largest message any firm takes; each firm's
      // own maximum is still checked at DATA (552). Firm settings change, so it is read per connection.
      largestFirmMaximum(ctx).then(
        (size) => {
          server.options.size = size || undefined;
          callback();
        },
        (error: unknown) => callback(new SmtpError(`Temporary failure: ${String(error)}`, 421)),
      );
    },
    onAuth(auth, _session, callback) {
      const expected = options.users?.get(auth.username ?? "");
      if (!expected || expected !== auth.password) return callback(new SmtpError("Authentication failed", 535));
      callback(null, { user: auth.username });
    },
    onRcptTo(address, _session, callback) {
      inboxOf(ctx, address.address).then(
        (inbox) => {
          if (!inbox) return callback(new SmtpError(`No inbox at ${address.address}`, 550));
          // DATA uses what RCPT found rather than asking again.
          found.set(address, inbox);
          callback();
        },
        (error: unknown) => callback(new SmtpError(`Temporary failure: ${String(error)}`, 451)),
      );
    },
    onData(stream, session, callback) {
      void (async () => {
        const recipients = session.envelope.rcptTo.map((r) => r.address);
        const inboxes = await inboxesOfRecipients(ctx, session.envelope.rcptTo, found);
        const max = Math.min(...inboxes.map((inbox) => inbox.maxBytes).filter((n) => n > 0), Number.MAX_SAFE_INTEGER);
        const chunks: Buffer[] = [];
        let size = 0;
        for await (const chunk of stream as AsyncIterable<Buffer>) {
          size += chunk.length;
          if (size <= max) chunks.push(chunk);
        }
        if (size > max) {
          log.warn({ bytes: size, max, remoteAddress: session.remoteAddress }, "message refused: larger than the firm's maximum");
          throw new SmtpError("Message exceeds fixed maximum message size", 552);
        }
        const raw = Buffer.concat(chunks);
        const sender = session.envelope.mailFrom ? session.envelope.mailFrom.address : "";
        for (const { firmId } of inboxes) await receiveMessage(ctx, { firmId, raw, source: "SMTP", sender, recipients });
      })().then(
        () => callback(),
        (error: unknown) => {
          if (!(error instanceof SmtpError))
            log.error({ err: error, remoteAddress: session.remoteAddress }, "message not stored; the sender is asked to try again");
          callback(error instanceof SmtpError ? error : new SmtpError(`Temporary failure, try again later: ${String(error)}`, 451));
        },
      );
    },
  };
  const server = new SMTPServer(config);
  server.on("error", (error) => log.error({ err: error }, "SMTP connection failed"));
  const sessionTimeoutMs = options.sessionTimeoutMs ?? DEFAULT_SESSION_TIMEOUT_MS;
  server.server.on("connection", (socket: Socket) => {
    const timer = setTimeout(() => socket.destroy(), sessionTimeoutMs);
    timer.unref();
    socket.once("close", () => clearTimeout(timer));
  });
  return server;
}

export function listen(server: SMTPServer, port: number, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => {
      const address = server.server.address();
      resolve(typeof address === "object" && address ? address.port : port);
    });
  });
}
