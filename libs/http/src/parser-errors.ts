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
export function rawErrorResponse(err: AppError): string {
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
 * the parser's other errors answer as node does.
 */
export function answerParserErrors(server: Server): void {
  server.on('clientError', (err: NodeJS.ErrnoException & { rawPacket?: Buffer }, socket: Duplex) => {
    if (err.code === 'ECONNRESET' || !socket.writable || (socket as Duplex & { bytesWritten?: number }).bytesWritten) {
      socket.destroy();
      return;
    }
    const response =
      err.code === 'HPE_HEADER_OVERFLOW'
        ? rawErrorResponse(overflowError(err.rawPacket, defaultMaxHeaderSize))
        : (PLAIN[err.code ?? ''] ?? BAD_REQUEST);
    socket.end(response, () => socket.destroy());
  });
}
