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
        chunks.push(withoutUnwrittenEnd(chunk));
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

// React 18's streaming renderer encodes text into a 2,048-byte buffer; when the next character does
// not fit in the buffer's last one to three bytes, it sends the whole buffer, those unwritten bytes
// included, as NUL characters in the page (facebook/react#24985, fixed in React 19 by
// facebook/react#26228, never released for 18; decision 114). A full buffer otherwise ends in a NUL
// only where the page's text has U+0000, which a browser drops from text anyway.
const REACT_CHUNK_BYTES = 2048;
const LONGEST_UNWRITTEN = 3;

function withoutUnwrittenEnd(chunk: Uint8Array): Uint8Array {
  if (chunk.length !== REACT_CHUNK_BYTES || chunk[REACT_CHUNK_BYTES - 1] !== 0) return chunk;
  let end = REACT_CHUNK_BYTES - 1;
  while (end > REACT_CHUNK_BYTES - LONGEST_UNWRITTEN && chunk[end - 1] === 0) end--;
  return chunk.subarray(0, end);
}
