import { stat, readFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { RequestHandler } from 'express';
import { acceptedEncoding } from '@vellum/http';

const brotli = promisify(brotliCompress);
const gz = promisify(gzip);
/** Text worth compressing; images and fonts are compressed already. */
const TEXT = /\.(js|mjs|css|html|svg|json|map|txt)$/;

/**
 * The text files of a static folder sent brotli- or gzip-compressed when the client accepts it (`Vary:
 * Accept-Encoding` either way). Each file is compressed once per version (path, size, mtime) and kept in memory:
 * the admin app is a few files. Anything else (no such file, a range request, an image) falls through to
 * express.static, which sends it as is.
 */
export function compressedFiles(dir: string, headers: (file: string) => Record<string, string>): RequestHandler {
  const cache = new Map<string, { version: string; body: Promise<Buffer> }>();
  return (req, res, next) => {
    if ((req.method !== 'GET' && req.method !== 'HEAD') || req.headers.range) return next();
    const file = path.join(dir, decodeURIComponent(req.path));
    if (!file.startsWith(dir + path.sep) || !TEXT.test(file)) return next();
    res.vary('Accept-Encoding');
    const encoding = acceptedEncoding(req.headers['accept-encoding']);
    if (!encoding) return next();
    stat(file).then(
      async (s) => {
        if (!s.isFile()) return next();
        const key = `${encoding} ${file}`;
        const version = `${s.size} ${s.mtimeMs}`;
        let entry = cache.get(key);
        if (entry?.version !== version) {
          const body = readFile(file).then((b) =>
            encoding === 'br'
              ? brotli(b, { params: { [constants.BROTLI_PARAM_QUALITY]: 9, [constants.BROTLI_PARAM_SIZE_HINT]: b.length } })
              : gz(b, { level: 9 }),
          );
          entry = { version, body };
          cache.set(key, entry);
          body.catch(() => cache.delete(key));
        }
        const body = await entry.body;
        for (const [k, v] of Object.entries(headers(file))) res.setHeader(k, v);
        res.type(path.extname(file));
        res.setHeader('Content-Encoding', encoding);
        res.setHeader('Content-Length', body.length);
        res.end(req.method === 'HEAD' ? undefined : body);
      },
      () => next(),
    );
  };
}
