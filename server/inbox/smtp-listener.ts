import fs from "node:fs";
import { BlockList, isIP } from "node:net";
import { SMTPServer, type SMTPServerOptions } from "smtp-server";
import type { ServerContext } from "../context";
import { findFirm } from "../firm/firm-repository";
import { firmForAddress, receiveMessage } from "./receive";

export interface SmtpOptions {
  port: number;
  host: string;
  /** PEM files for STARTTLS; without them the listener offers no TLS. */
  tls?: { key: string; cert: string };
  /** user → password; when given, clients must authenticate. */
  users?: Map<string, string>;
  /** Addresses or CIDR ranges allowed to connect; empty means everyone. */
  allow?: string[];
}

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

/**
 * The SMTP inbox: mail to a firm's inbox address becomes an inbox item, committed before the
 * 250 reply. Unknown recipients are refused at RCPT; a message over the firm's size limit gets 552.
 */
export function createSmtpListener(ctx: ServerContext, options: SmtpOptions): SMTPServer {
  const allowed = allowList(options.allow ?? []);
  const firmsBySession = new Map<string, Set<number>>();

  const config: SMTPServerOptions = {
    name: "ecfx",
    banner: "ECFX court notice inbox",
    logger: false,
    disabledCommands: options.tls ? [] : ["STARTTLS"],
    authOptional: !options.users,
    allowInsecureAuth: !options.tls,
    ...(options.tls ? { key: fs.readFileSync(options.tls.key), cert: fs.readFileSync(options.tls.cert) } : {}),
    onConnect(session, callback) {
      if (allowed) {
        const { address, family } = clientAddress(session.remoteAddress);
        if (!allowed.check(address, family)) return callback(new SmtpError("Connections from this address are not accepted", 554));
      }
      callback();
    },
    onAuth(auth, _session, callback) {
      const expected = options.users?.get(auth.username ?? "");
      if (!expected || expected !== auth.password) return callback(new SmtpError("Authentication failed", 535));
      callback(null, { user: auth.username });
    },
    onRcptTo(address, session, callback) {
      firmForAddress(ctx, address.address).then(
        (firmId) => {
          if (!firmId) return callback(new SmtpError(`No inbox at ${address.address}`, 550));
          const firms = firmsBySession.get(session.id) ?? new Set<number>();
          firms.add(firmId);
          firmsBySession.set(session.id, firms);
          callback();
        },
        (error: unknown) => callback(new SmtpError(`Temporary failure: ${String(error)}`, 451)),
      );
    },
    onData(stream, session, callback) {
      const firms = [...(firmsBySession.get(session.id) ?? [])];
      firmsBySession.delete(session.id);
      void (async () => {
        const limits = await Promise.all(firms.map(async (id) => (await findFirm(ctx.database, id))?.max_email_attachment_size ?? 0));
        const max = Math.min(...limits.filter((n) => n > 0), Number.MAX_SAFE_INTEGER);
        const chunks: Buffer[] = [];
        let size = 0;
        for await (const chunk of stream as AsyncIterable<Buffer>) {
          size += chunk.length;
          if (size <= max) chunks.push(chunk);
        }
        if (size > max) throw new SmtpError("Message exceeds fixed maximum message size", 552);
        const raw = Buffer.concat(chunks);
        const sender = session.envelope.mailFrom ? session.envelope.mailFrom.address : "";
        const recipients = session.envelope.rcptTo.map((r) => r.address);
        for (const firmId of firms) await receiveMessage(ctx, { firmId, raw, source: "SMTP", sender, recipients });
      })().then(
        () => callback(),
        (error: unknown) =>
          callback(error instanceof SmtpError ? error : new SmtpError(`Temporary failure, try again later: ${String(error)}`, 451)),
      );
    },
    onClose(session) {
      firmsBySession.delete(session.id);
    },
  };
  return new SMTPServer(config);
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
