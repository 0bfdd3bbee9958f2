import { IncomingMessage, type ServerResponse } from 'node:http';
import type { Request, RequestHandler, Response } from 'express';
import { refuseDeepJson } from '@vellum/http';

/** The plain case: JSON in UTF-8 (the charset named or not). */
const PLAIN_TYPE = /^application\/json\s*(;\s*charset="?utf-8"?\s*)?$/i;
/** body-parser's strict mode: the first character past JSON whitespace opens an object or an array. */
const STRICT_START = /^[ \t\n\r]*[{[]/;

type Done = (err?: unknown) => void;

/**
 * A JSON request body as `parser` (express.json, as the express stack mounts it) reads it, without its per-request
 * machinery for the plain case: a body declared by Content-Length within `limit`, `Content-Type: application/json`
 * (charset UTF-8 or none), no Content-Encoding — read, and parsed as body-parser parses it (empty: `{}`; strict:
 * an object or an array). Every other request goes to `parser` itself, and so does a plain body that does not
 * parse: its bytes are read again by `parser` from a copy of the request (the same error, or its answer for what
 * only it takes, such as a byte order mark). Sets `req.body`, then calls `done` (with the parser's error).
 */
export class JsonBody {
  constructor(
    private readonly parser: RequestHandler,
    private readonly limit: number,
  ) {}

  read(req: IncomingMessage, res: ServerResponse, done: Done): void {
    const h = req.headers;
    const declared = h['content-length'];
    const length = declared === undefined ? NaN : Number(declared);
    const plain =
      h['transfer-encoding'] === undefined &&
      (h['content-encoding'] === undefined || h['content-encoding'] === 'identity') &&
      Number.isSafeInteger(length) &&
      length <= this.limit &&
      PLAIN_TYPE.test(h['content-type'] ?? '');
    if (!plain) return void this.parser(req as Request, res as Response, (err?: unknown) => (err ? done(err) : refuseDeepJson(req, res, done)));
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.once('error', (e: unknown) => done(e));
    req.once('end', () => this.parsed(req, res, chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks), done));
  }

  private parsed(req: IncomingMessage, res: ServerResponse, bytes: Buffer, done: Done): void {
    const text = bytes.toString('utf8');
    let body: unknown;
    try {
      body = text.length === 0 ? {} : STRICT_START.test(text) ? JSON.parse(text) : undefined;
    } catch {
      body = undefined;
    }
    if (body === undefined) return this.replay(req, res, bytes, done);
    (req as Request).body = body;
    refuseDeepJson(req, res, done);
  }

  /** `parser` over the same head and bytes: its error (or its body) exactly. */
  private replay(req: IncomingMessage, res: ServerResponse, bytes: Buffer, done: Done): void {
    const copy = new IncomingMessage(req.socket);
    copy.method = req.method;
    copy.url = req.url;
    copy.headers = req.headers;
    copy.rawHeaders = req.rawHeaders;
    // the whole message (else the copy's end takes it for an aborted one and destroys the caller's socket)
    copy.complete = true;
    copy.push(bytes);
    copy.push(null);
    void this.parser(copy as Request, res as Response, (err?: unknown) => {
      if (!err) (req as Request).body = (copy as Request).body;
      done(err);
    });
  }
}
