import nodemailer from "nodemailer";
import { DEMO_INBOX } from "./demo";
import { demoNotices } from "./demo-notices";

/** The demo notices arrive the way real ones do: over SMTP, to the demo firm's inbox address. */
export async function sendDemoNotices(port: number): Promise<number> {
  const transport = nodemailer.createTransport({ host: "127.0.0.1", port, secure: false, ignoreTLS: true });
  let sent = 0;
  try {
    for (const notice of demoNotices()) {
      await transport.sendMail({ envelope: { from: notice.from, to: [DEMO_INBOX] }, raw: notice.raw });
      sent++;
    }
  } finally {
    transport.close();
  }
  return sent;
}
