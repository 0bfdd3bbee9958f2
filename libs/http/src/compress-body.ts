import type { ServerResponse } from 'node:http';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

export type Encoding = 'br' | 'gzip';

/** The best encoding the client accepts (`q=0` refuses one), or none. */
export function acceptedEncoding(header: string | string[] | undefined): Encoding | undefined {
  if (header === undefined || header === '') return undefined;
  const accepted = new Map<string, number>();
  for (const part of String(header).split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    if (name) accepted.set(name, q ? Number(q.slice(2)) : 1);
  }
  const ok = (e: string) => (accepted.get(e) ?? accepted.get('*') ?? 0) > 0;
  return ok('br') ? 'br' : ok('gzip') ? 'gzip' : undefined;
}

/** API answers from this size on are compressed for a client that accepts it; below, it gains too little for its CPU. */
export const COMPRESS_MIN_BYTES = 1024;
// fast settings: an answer is compressed on the request's own time (brotli 1: about gzip 6's size at half its CPU)
const BROTLI = { params: { [constants.BROTLI_PARAM_QUALITY]: 1 } };
const GZIP = { level: 6 };

/** `body` in `encoding`. */
export function compress(body: string | Buffer, encoding: Encoding): Buffer {
  return encoding === 'br' ? brotliCompressSync(body, BROTLI) : gzipSync(body, GZIP);
}

/**
 * The encoding an API answer of this size goes out in, for this request (undefined: as it is). From
 * COMPRESS_MIN_BYTES on, the answer varies with Accept-Encoding, so `vary` is called.
 */
export function answerEncoding(accept: string | string[] | undefined, size: number, vary: () => void): Encoding | undefined {
  if (size < COMPRESS_MIN_BYTES) return undefined;
  vary();
  return acceptedEncoding(accept);
}

/**
 * `body` as this response carries it: compressed (Content-Encoding set) when it is at least COMPRESS_MIN_BYTES and
 * the request accepts br or gzip, with `Vary: Accept-Encoding` from that size on. The caller sets Content-Length
 * (when it does) from what this returns.
 */
export function encodeBody(res: ServerResponse, body: string | Buffer): string | Buffer {
  const encoding = answerEncoding(res.req?.headers['accept-encoding'], body.length, () => res.appendHeader('Vary', 'Accept-Encoding'));
  if (!encoding) return body;
  res.setHeader('Content-Encoding', encoding);
  return compress(body, encoding);
}
