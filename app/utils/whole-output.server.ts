import { Writable } from "node:stream";

/**
 * What a renderer pipes into a stream, as one buffer once it ends. A page that is all ready is
 * sent as one piece: written in React's small chunks through a stream, the compression and the
 * socket, the pieces cost about an eighth of the console's CPU per page (decision 072).
 */
export function wholeOutput(pipe: (destination: Writable) => void): Promise<Buffer<ArrayBuffer>> {
  return new Promise((resolve, reject) => {
    const chunks: Uint8Array[] = [];
    const destination = new Writable({
      write(chunk: Uint8Array, _encoding, done) {
        chunks.push(chunk);
        done();
      },
      final(done) {
        resolve(Buffer.concat(chunks));
        done();
      },
    });
    destination.on("error", reject);
    pipe(destination);
  });
}
