import net from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_INBOX, SECOND_FIRM_INBOX } from "../../server/seed/demo";
import { createSmtpListener, listen, type SmtpOptions } from "../../server/inbox/smtp-listener";
import { type RunningApi, backends, startApi } from "./harness";

/** A bare SMTP client: each command waits for the server's complete (multi-line) answer. */
class SmtpDialog {
  private buffer = "";
  private waiting: ((answer: string) => void) | null = null;
  readonly closed: Promise<void>;

  constructor(private readonly socket: net.Socket) {
    socket.setEncoding("utf8");
    socket.on("data", (chunk: string) => {
      this.buffer += chunk;
      this.deliver();
    });
    this.closed = new Promise((resolve) => socket.once("close", () => resolve()));
  }

  static open(port: number): Promise<SmtpDialog> {
    return new Promise((resolve, reject) => {
      const socket = net.connect(port, "127.0.0.1", () => resolve(new SmtpDialog(socket)));
      socket.once("error", reject);
    });
  }

  private deliver() {
    // An answer ends with a line "NNN text" (a space after the code, not a dash).
    const end = this.buffer.match(/(^|\r\n)\d{3} [^\r\n]*\r\n/);
    if (!end || !this.waiting) return;
    const length = end.index! + end[0].length;
    const answer = this.buffer.slice(0, length);
    this.buffer = this.buffer.slice(length);
    const resolve = this.waiting;
    this.waiting = null;
    resolve(answer);
  }

  read(): Promise<string> {
    return new Promise((resolve) => {
      this.waiting = resolve;
      this.deliver();
    });
  }

  send(line: string): Promise<string> {
    const answer = this.read();
    this.socket.write(`${line}\r\n`);
    return answer;
  }

  write(raw: string) {
    this.socket.write(raw);
  }

  end() {
    this.socket.destroy();
  }
}

const message = (id: string) => `Message-ID: <${id}@test>\r\nSubject: ${id}\r\n\r\nbody\r\n.`;

describe.each(backends)("SMTP inbox edges (%s)", (backend) => {
  let running: RunningApi;
  const listeners: Array<() => Promise<void>> = [];

  async function startListener(options: Partial<SmtpOptions> = {}): Promise<number> {
    const smtp = createSmtpListener(running.ctx, { port: 0, host: "127.0.0.1", ...options });
    const port = await listen(smtp, 0, "127.0.0.1");
    listeners.push(() => new Promise((resolve) => smtp.close(() => resolve())));
    return port;
  }

  const itemsWithSubject = async (subject: string) =>
    running.ctx.database.db.selectFrom("inbox_item").select(["firm_id"]).where("subject", "=", subject).execute();

  beforeAll(async () => {
    running = await startApi({ backend });
  });
  afterAll(async () => {
    for (const close of listeners) await close();
    await running?.close();
  });

  it("files a message only for the recipients of the transaction it was sent in (RSET starts over)", async () => {
    const port = await startListener();
    const client = await SmtpDialog.open(port);
    await client.read();
    expect(await client.send("EHLO test")).toMatch(/^250/);
    expect(await client.send("MAIL FROM:<clerk@court.test>")).toMatch(/^250/);
    expect(await client.send(`RCPT TO:<${DEMO_INBOX}>`)).toMatch(/^250/);
    expect(await client.send("RSET")).toMatch(/^250/);
    expect(await client.send("MAIL FROM:<clerk@court.test>")).toMatch(/^250/);
    expect(await client.send(`RCPT TO:<${SECOND_FIRM_INBOX}>`)).toMatch(/^250/);
    expect(await client.send("DATA")).toMatch(/^354/);
    expect(await client.send(message("after-rset"))).toMatch(/^250/);
    await client.send("QUIT");
    client.end();

    const second = await running.ctx.database.db
      .selectFrom("inbox_address")
      .select("firm_id")
      .where("address", "=", SECOND_FIRM_INBOX)
      .executeTakeFirstOrThrow();
    expect(await itemsWithSubject("after-rset")).toEqual([{ firm_id: second.firm_id }]);
  });

  it("advertises SIZE with the largest firm maximum and still refuses a message over its own firm's maximum", async () => {
    const firms = await running.ctx.database.db.selectFrom("firm").select(["id", "name"]).orderBy("id").execute();
    await running.ctx.database.db.updateTable("firm").set({ max_email_attachment_size: 1000 }).where("id", "=", firms[0]!.id).execute();
    await running.ctx.database.db.updateTable("firm").set({ max_email_attachment_size: 5000 }).where("id", "=", firms[1]!.id).execute();
    const port = await startListener();
    const client = await SmtpDialog.open(port);
    await client.read();
    expect(await client.send("EHLO test")).toMatch(/250[- ]SIZE 5000\r\n/);
    expect(await client.send("MAIL FROM:<clerk@court.test>")).toMatch(/^250/);
    expect(await client.send(`RCPT TO:<${DEMO_INBOX}>`)).toMatch(/^250/);
    expect(await client.send("DATA")).toMatch(/^354/);
    expect(await client.send(`Subject: too-big\r\n\r\n${"x".repeat(2000)}\r\n.`)).toMatch(/^552/);
    client.end();
    expect(await itemsWithSubject("too-big")).toEqual([]);
  });

  it("answers 421 to a connection over the cap", async () => {
    const port = await startListener({ maxConnections: 2 });
    const first = await SmtpDialog.open(port);
    const second = await SmtpDialog.open(port);
    expect(await first.read()).toMatch(/^220/);
    expect(await second.read()).toMatch(/^220/);
    const third = await SmtpDialog.open(port);
    expect(await third.read()).toMatch(/^421/);
    for (const c of [first, second, third]) c.end();
  });

  it("disconnects a silent client", async () => {
    const port = await startListener({ idleTimeoutMs: 300 });
    const client = await SmtpDialog.open(port);
    await client.read();
    await client.closed;
  });

  it("disconnects a client that keeps trickling a message past the session limit", async () => {
    const port = await startListener({ idleTimeoutMs: 5_000, sessionTimeoutMs: 800 });
    const client = await SmtpDialog.open(port);
    await client.read();
    await client.send("EHLO test");
    await client.send("MAIL FROM:<clerk@court.test>");
    await client.send(`RCPT TO:<${DEMO_INBOX}>`);
    await client.send("DATA");
    const trickle = setInterval(() => client.write("x"), 100);
    await client.closed;
    clearInterval(trickle);
  });
});
