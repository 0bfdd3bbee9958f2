import { maxHeaderSize as defaultMaxHeaderSize, type Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { errors, toErrorBody, type AppError } from '@vellum/errors';

const SEARCH_HINT =
  'A long query (e.g. a big filter) belongs in the body of a SEARCH request to the same path: SEARCH /revisions with {"query": {"filter": {…}}}.';

/** What node answers itself for the parser's other errors (lib/_http_server.js), kept as they are. */
const PLAIN: Record<string, string> = {
  HPE_CHUNK_EXTENSIONS_OVERFLOW: 'HTTP/1.1 413 Payload Too Large\r\nConnection: close\r\n\r\n',
  ERR_HTTP_REQUEST_TIMEOUT: 'HTTP/1.1 408 Request Timeout\r\nConnection: close\r\n\r\n',
};
const BAD_REQUEST = 'HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n';
const REASON: Record<number, string> = { 414: 'URI Too Long', 431: 'Request Header Fields Too Large' };
/** After answering, how long the client's remaining input is read and dropped before the socket is destroyed. */
const DRAIN_MS = 2000;

/**
 * A header overflow is a 414 when the request line itself is the bulk of it (no end of line in the packet, or a
 * line longer than half the limit: a long URL), else a 431.
 */
function overflowError(raw: Buffer | undefined, limit: number): AppError {
  const eol = raw ? raw.indexOf('\r\n') : -1;
  const longLine = raw !== undefined && (eol === -1 ? /^[A-Z]+ /.test(raw.subarray(0, 16).toString('latin1')) : eol > limit / 2);
  return longLine ? errors.uriTooLong(SEARCH_HINT) : errors.headersTooLarge(SEARCH_HINT);
}

/** The raw HTTP answer with the contract's error envelope; the connection is closed (the parser cannot go on). */
function rawErrorResponse(err: AppError): string {
  const body = JSON.stringify(toErrorBody(err));
  return (
    `HTTP/1.1 ${err.status} ${REASON[err.status] ?? 'Error'}\r\n` +
    'Content-Type: application/json; charset=utf-8\r\n' +
    `Content-Length: ${Buffer.byteLength(body)}\r\n` +
    'Connection: close\r\n\r\n' +
    body
  );
}

/**
 * The HTTP parser's refusals (node's 'clientError'), which never reach express: a request line or headers too
 * large answer 414/431 in the error envelope with a message pointing at SEARCH (node's own answer has no body);
 * the parser's other errors answer as node does. A keep-alive connection whose earlier responses are complete is
 * answered too; one with a response still being written cannot be (it would interleave) and is destroyed.
 */
export function answerParserErrors(server: Server): void {
  const inFlight = new WeakMap<Duplex, number>();
  const answered = new WeakSet<Duplex>();
  server.on('request', (req, res) => {
    const socket = req.socket;
    inFlight.set(socket, (inFlight.get(socket) ?? 0) + 1);
    const done = () => {
      res.off('finish', done);
      res.off('close', done);
      inFlight.set(socket, (inFlight.get(socket) ?? 1) - 1);
    };
    res.on('finish', done);
    res.on('close', done);
  });
  server.on('clientError', (err: NodeJS.ErrnoException & { rawPacket?: Buffer }, socket: Duplex) => {
    // the parser reports every later chunk of an answered connection again: it is being drained
    if (answered.has(socket)) return;
    if (err.code === 'ECONNRESET' || !socket.writable || (inFlight.get(socket) ?? 0) > 0) {
      socket.destroy();
      return;
    }
    const response =
      err.code === 'HPE_HEADER_OVERFLOW' ? rawErrorResponse(overflowError(err.rawPacket, defaultMaxHeaderSize)) : (PLAIN[err.code ?? ''] ?? BAD_REQUEST);
    answered.add(socket);
    closeAfterAnswer(socket, response);
  });
}

/**
 * Writes the answer and half-closes, then reads and drops what the client still sends until it closes (or
 * DRAIN_MS): closing with unread input makes the kernel send a reset, which can discard the answer at the client.
 */
function closeAfterAnswer(socket: Duplex, response: string): void {
  const timer = setTimeout(() => socket.destroy(), DRAIN_MS);
  timer.unref();
  socket.once('close', () => clearTimeout(timer));
  socket.once('end', () => socket.destroy());
  socket.resume();
  socket.end(response);
}
