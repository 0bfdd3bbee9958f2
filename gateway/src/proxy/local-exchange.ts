import { IncomingMessage, ServerResponse, type OutgoingHttpHeaders } from 'node:http';
import { Duplex } from 'node:stream';
import type { RequestListener } from '@vellum/http';
import { headersFromList } from './local-handoff';

export interface LocalRequest {
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
  body: Buffer;
}

/**
 * The in-process end of a request: what the service writes (head and body) is kept here instead of a connection;
 * it tells node:http it is a plain, open, writable socket from 127.0.0.1 (what a loopback connection is).
 */
class LocalSocket extends Duplex {
  readonly remoteAddress = '127.0.0.1';
  readonly remoteFamily = 'IPv4';
  readonly remotePort = 0;
  readonly localAddress = '127.0.0.1';
  readonly encrypted = false;
  readonly chunks: Buffer[] = [];

  override _read(): void {}

  override _write(chunk: Buffer | string, encoding: BufferEncoding, callback: (e?: Error | null) => void): void {
    this.chunks.push(typeof chunk === 'string' ? Buffer.from(chunk, encoding) : chunk);
    callback();
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
      const head = (res as unknown as { _header?: string })._header ?? '';
      const all = Buffer.concat(socket.chunks);
      // node:http's 'close' of the response (access log, metrics), as when a connection's request ends; after the
      // writes' own callbacks have run (destroyed before them, each pending write made an error object)
      setImmediate(() => socket.destroy());
      if (!all.subarray(0, head.length).equals(Buffer.from(head, 'latin1'))) return reject(new Error('no response head written'));
      resolve({ status: res.statusCode, headers: res.getHeaders(), body: all.subarray(Buffer.byteLength(head, 'latin1')) });
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
