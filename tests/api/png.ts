import zlib from "node:zlib";

// A real PNG built from its chunks, so the logo tests upload an image any decoder accepts.

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, "ascii"), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(zlib.crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** An 8-bit RGB PNG of `rows`, each a filter byte (0) followed by width × 3 bytes. */
function rgbPng(width: number, height: number, rows: Buffer[]): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.writeUInt8(8, 8); // bit depth
  header.writeUInt8(2, 9); // colour type: RGB
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", header),
    chunk("IDAT", zlib.deflateSync(Buffer.concat(rows))),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}

/** A width × height RGB image of one colour. */
export function solidPng(width = 1, height = 1, rgb: [number, number, number] = [28, 79, 138]): Buffer {
  const row = Buffer.concat([Buffer.from([0]), Buffer.from(Array.from({ length: width }, () => rgb).flat())]);
  return rgbPng(
    width,
    height,
    Array.from({ length: height }, () => row),
  );
}

/** A width × height RGB image of pixels that do not compress: a PNG of about width × height × 3 bytes. */
export function noisyPng(width: number, height: number): Buffer {
  let state = 2_463_534_242;
  // xorshift32: the same image every run.
  const next = () => ((state ^= state << 13), (state ^= state >>> 17), (state ^= state << 5), state & 0xff);
  return rgbPng(
    width,
    height,
    Array.from({ length: height }, () => Buffer.from([0, ...Array.from({ length: width * 3 }, next)])),
  );
}
