/** A response body as undici gives it: a byte stream that can be dropped unread. */
export interface CappedBody extends AsyncIterable<Uint8Array> {
  destroy(): void;
}

/**
 * Reads a response body whole, with a byte cap: a body whose declared length (`content-length`)
 * is over `maxBytes` is not read at all, and one that grows past it while streaming is not read
 * further; either way the body is destroyed and `tooLarge` makes the error thrown (given the
 * declared length when that was what refused it).
 */
export async function readBodyCapped(
  body: CappedBody,
  contentLength: string | string[] | undefined,
  maxBytes: number,
  tooLarge: (declared?: number) => Error,
): Promise<Uint8Array> {
  const declared = Number(contentLength);
  if (Number.isFinite(declared) && declared > maxBytes) {
    body.destroy();
    throw tooLarge(declared);
  }
  const chunks: Uint8Array[] = [];
  let total = 0;
  for await (const chunk of body) {
    total += chunk.length;
    if (total > maxBytes) {
      body.destroy();
      throw tooLarge();
    }
    chunks.push(chunk);
  }
  const bytes = new Uint8Array(total);
  let off = 0;
  for (const c of chunks) {
    bytes.set(c, off);
    off += c.length;
  }
  return bytes;
}
