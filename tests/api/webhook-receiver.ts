import http from "node:http";
import type { AddressInfo } from "node:net";

// A webhook receiver on 127.0.0.1 for the tests: it keeps every request it gets and answers
// with the status the test chooses.

export interface ReceivedCall {
  headers: http.IncomingHttpHeaders;
  body: string;
}

export interface WebhookReceiver {
  url: string;
  calls: ReceivedCall[];
  /** The status of the answer to a call; 200 unless the test says otherwise. */
  answer: (call: ReceivedCall) => number;
  close(): Promise<void>;
}

export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const receiver: Omit<WebhookReceiver, "url" | "close"> = { calls: [], answer: () => 200 };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const call = { headers: req.headers, body: Buffer.concat(chunks).toString("utf8") };
      receiver.calls.push(call);
      const status = receiver.answer(call);
      res.writeHead(status, { "content-type": "text/plain" }).end(status < 300 ? "ok" : `receiver says no ${"x".repeat(1000)}`);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return Object.assign(receiver, {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  });
}
