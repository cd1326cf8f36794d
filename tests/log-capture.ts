import { Writable } from "node:stream";

/** A stream that keeps what a logger writes, read back as the JSON lines it holds. */
export function logCapture(): { stream: Writable; lines: () => Record<string, unknown>[]; text: () => string } {
  let text = "";
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      text += chunk.toString("utf8");
      done();
    },
  });
  const lines = () =>
    text
      .split("\n")
      .filter(Boolean)
      .map((line) => JSON.parse(line) as Record<string, unknown>);
  return { stream, lines, text: () => text };
}
