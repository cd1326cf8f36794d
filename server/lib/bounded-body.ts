// An answer from another system (a DMS, a provider) is read whole only up to a limit: a larger
// one is refused as soon as it says or shows so, without reading the rest into memory.

interface Answer {
  headers: { get(name: string): string | null };
  body: (AsyncIterable<Uint8Array> & { cancel(): Promise<void> }) | null;
}

/** The body's bytes; `tooLarge()` is thrown once the declared or read size passes `max`. */
export async function readBoundedBody(response: Answer, max: number, tooLarge: () => Error): Promise<Buffer> {
  if (Number(response.headers.get("content-length") ?? 0) > max) {
    await response.body?.cancel();
    throw tooLarge();
  }
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of response.body ?? []) {
    size += chunk.byteLength;
    if (size > max) throw tooLarge();
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}
