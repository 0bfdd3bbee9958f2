import net from 'node:net';

/** One raw HTTP exchange on a fresh connection: the bytes the server answered until it closed (bounded: 5 s). */
export function rawHttpExchange(baseUrl: string, request: string): Promise<string> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host: hostname.replace(/^\[|\]$/g, ''), port: Number(port) }, () => socket.write(request));
    let out = '';
    socket.setEncoding('utf8');
    socket.on('data', (d: string) => (out += d));
    socket.on('error', (e: NodeJS.ErrnoException) => (e.code === 'ECONNRESET' ? resolve(out) : reject(e)));
    socket.on('close', () => resolve(out));
    socket.setTimeout(5000, () => socket.destroy(new Error('no answer within 5 s')));
  });
}

/** Status, head and JSON body of a raw HTTP answer. */
export function parseRawResponse(raw: string): { status: number; head: string; body: unknown } {
  const at = raw.indexOf('\r\n\r\n');
  const head = at === -1 ? raw : raw.slice(0, at);
  const text = at === -1 ? '' : raw.slice(at + 4);
  return { status: Number(head.split(' ')[1]), head, body: text ? JSON.parse(text) : undefined };
}

/** A request line over node's 16 KiB header limit: a filter of 4000 ids in the query string. */
export function hugeFilterRequest(path: string): string {
  const filter = encodeURIComponent(JSON.stringify({ id: { _in: Array.from({ length: 4000 }, (_, i) => i) } }));
  return `GET ${path}?filter=${filter} HTTP/1.1\r\nHost: vellum.test\r\n\r\n`;
}

/** Headers over node's 16 KiB limit with a short request line. */
export function hugeHeadersRequest(path: string): string {
  const headers = Array.from({ length: 40 }, (_, i) => `X-Big-${i}: ${'v'.repeat(500)}\r\n`).join('');
  return `GET ${path} HTTP/1.1\r\nHost: vellum.test\r\n${headers}\r\n`;
}

/**
 * Two requests on one keep-alive connection: `first`, then (once its answer is complete: a Content-Length body)
 * `second`, then `trailing` chunks (10 ms apart, not reading meanwhile) as a slow client still sending would. The bytes answered to `second` until the server
 * closed, or the error that ended the connection (e.g. ECONNRESET). Bounded: 5 s.
 */
export function rawKeepAliveExchange(
  baseUrl: string,
  first: string,
  second: string,
  trailing: string[] = [],
): Promise<{ first: string; second: string; error?: string }> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host: hostname.replace(/^\[|\]$/g, ''), port: Number(port) }, () => socket.write(first));
    let buf = '';
    let firstAnswer: string | undefined;
    const finish = (error?: string) => resolve({ first: firstAnswer ?? buf, second: firstAnswer === undefined ? '' : buf, error });
    socket.setEncoding('latin1');
    socket.on('data', (d: string) => {
      buf += d;
      if (firstAnswer !== undefined) return;
      const at = buf.indexOf('\r\n\r\n');
      const length = /\r\ncontent-length: *(\d+)/i.exec(buf.slice(0, at))?.[1];
      if (at === -1 || length === undefined || buf.length < at + 4 + Number(length)) return;
      firstAnswer = buf.slice(0, at + 4 + Number(length));
      buf = buf.slice(firstAnswer.length);
      socket.write(second);
      if (!trailing.length) return;
      // a slow client: still sending, and reading only once it has sent everything
      socket.pause();
      let i = 0;
      const more = setInterval(() => {
        if (i < trailing.length && !socket.destroyed) return void socket.write(trailing[i++], () => undefined);
        clearInterval(more);
        socket.resume();
      }, 10);
    });
    socket.on('error', (e: NodeJS.ErrnoException) => (e.code === 'ECONNRESET' || e.code === 'EPIPE' ? finish(e.code) : reject(e)));
    socket.on('close', () => finish());
    socket.setTimeout(5000, () => socket.destroy(new Error('no answer within 5 s')));
  });
}
