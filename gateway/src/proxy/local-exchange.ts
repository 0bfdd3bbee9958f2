import { IncomingMessage, ServerResponse, type OutgoingHttpHeaders } from 'node:http';
import { Duplex } from 'node:stream';
import type { RequestListener } from '@vellum/http';
import { headersFromList } from './local-handoff';

interface LocalRequest {
  method: string;
  /** Path and query, e.g. `/graphql`. */
  url: string;
  /** The request headers as the HTTP path would send them (flat name/value list, Host first). */
  headers: string[];
  body: string;
  /**
   * The value `body` is the JSON text of: the service gets it as its request's parsed body (`req.body`, the stream
   * already read — express.json takes the request as parsed) instead of parsing the text again.
   */
  parsed?: object;
  /** No complete answer within this → rejected with a TimeoutError (the late answer goes nowhere). */
  timeoutMs: number;
}

export interface LocalAnswer {
  status: number;
  headers: OutgoingHttpHeaders;
  /**
   * What the service wrote after the head: its text when it wrote only text (what `res.end(text)` writes — the
   * caller's own write encodes it once, on its socket), else the bytes.
   */
  body: string | Buffer;
}

/**
 * A character other than printable ASCII, tab and line ends: text without one (a response head) reads the same as
 * UTF-8 and as latin1 (node:http writes its head as latin1, alone when no body follows).
 */
const NOT_PLAIN = /[^\t\r\n -~]/;
/** Where an HTTP/1.1 head ends. */
const HEAD_END = '\r\n\r\n';

/**
 * The in-process end of a request: what the service writes (head and body) is kept here instead of a connection,
 * UTF-8 text as text (no bytes made of it here: `decodeStrings: false`); it tells node:http it is a plain, open,
 * writable socket from 127.0.0.1 (what a loopback connection is).
 */
class LocalSocket extends Duplex {
  readonly remoteAddress = '127.0.0.1';
  readonly remoteFamily = 'IPv4';
  readonly remotePort = 0;
  readonly localAddress = '127.0.0.1';
  readonly encrypted = false;
  /** Text to be read as UTF-8, or bytes. */
  readonly chunks: (Buffer | string)[] = [];

  constructor() {
    super({ decodeStrings: false });
  }

  override _read(): void {}

  override _write(chunk: Buffer | string, encoding: BufferEncoding, callback: (e?: Error | null) => void): void {
    const kept = typeof chunk !== 'string' || encoding === 'utf8' || encoding === 'utf-8' || (encoding === 'latin1' && !NOT_PLAIN.test(chunk));
    this.chunks.push(kept ? chunk : Buffer.from(chunk, encoding));
    callback();
  }

  /**
   * What was written after the response head (which ends at the first blank line: no header holds one): the text
   * when every chunk was text (node writes the head and a text body as one string), else the bytes; undefined when
   * no head was written.
   */
  bodyAfterHead(): string | Buffer | undefined {
    const chunks = this.chunks;
    if (chunks.every((c) => typeof c === 'string')) {
      const all = chunks.length === 1 ? chunks[0]! : chunks.join('');
      const end = all.indexOf(HEAD_END);
      return end === -1 ? undefined : all.slice(end + HEAD_END.length);
    }
    const all = Buffer.concat(chunks.map((c) => (typeof c === 'string' ? Buffer.from(c, 'utf8') : c)));
    const end = all.indexOf(HEAD_END, 0, 'latin1');
    return end === -1 ? undefined : all.subarray(end + HEAD_END.length);
  }

  setTimeout(): this {
    return this;
  }

  setNoDelay(): this {
    return this;
  }

  setKeepAlive(): this {
    return this;
  }

  ref(): this {
    return this;
  }

  unref(): this {
    return this;
  }
}

/**
 * One request to a service of this process (the embedded topology) without a loopback socket: node's own request
 * and response objects (IncomingMessage, ServerResponse — what node:http would make, nothing of them replaced)
 * over an in-memory socket, handed to the service's request listener, which runs its whole pipeline as for a
 * connection (request id, access log and metrics, token check, body limit, routes). The answer is read off the
 * response when it finishes: its status, its headers (`getHeaders`) and the bytes written after the head (a streamed
 * answer too: no chunked framing here).
 */
export function localExchange(handler: RequestListener, r: LocalRequest): Promise<LocalAnswer> {
  return new Promise((resolve, reject) => {
    const socket = new LocalSocket();
    const req = new IncomingMessage(socket as never);
    req.method = r.method;
    req.url = r.url;
    req.httpVersionMajor = 1;
    req.httpVersionMinor = 1;
    req.httpVersion = '1.1';
    req.headers = headersFromList(r.headers);
    req.rawHeaders = r.headers;
    // the whole message is here (node's parser sets this at its end): without it the request's own destroy after
    // its 'end' takes it for an aborted one and destroys the socket under the response
    req.complete = true;
    if (r.parsed !== undefined) {
      (req as IncomingMessage & { body?: unknown }).body = r.parsed;
      req.push(null);
      req.readable = false; // read: body parsers (on-finished) leave it as it is
    } else {
      req.push(r.body);
      req.push(null);
    }
    const res = new ServerResponse(req);
    // an answer without Content-Length (streamed) is written as it is, not in chunked framing: the bytes after the
    // head are the body
    res.useChunkedEncodingByDefault = false;
    res.assignSocket(socket as never);
    const timer = setTimeout(() => {
      const e = new Error(`no answer within ${r.timeoutMs} ms`);
      e.name = 'TimeoutError';
      reject(e);
      socket.destroy();
    }, r.timeoutMs);
    res.once('finish', () => {
      clearTimeout(timer);
      const body = socket.bodyAfterHead();
      // node:http's 'close' of the response (access log, metrics), as when a connection's request ends; after the
      // writes' own callbacks have run (destroyed before them, each pending write made an error object)
      setImmediate(() => socket.destroy());
      if (body === undefined) return reject(new Error('no response head written'));
      resolve({ status: res.statusCode, headers: res.getHeaders(), body });
    });
    try {
      handler(req, res);
    } catch (e) {
      clearTimeout(timer);
      socket.destroy();
      reject(e);
    }
  });
}
