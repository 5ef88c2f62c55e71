// Requests Node's HTTP parser refuses before any route sees them (a URL or headers over the limit, a
// malformed request line or header, a request not sent in time). Node's own answer is a status line
// without a body; these get the documented error body, as every other refusal does.
import type { Duplex } from 'node:stream';
import { errorBody } from './errors.js';
import { TYPES } from '../read/errors.js';

const STATUS: Record<string, [number, string, string]> = {
  HPE_HEADER_OVERFLOW: [431, 'Request Header Fields Too Large', 'the request line and headers are larger than the server takes (a URL counts towards them); send a shorter URL, or POST the input in a body where the operation takes one'],
  ERR_HTTP_REQUEST_TIMEOUT: [408, 'Request Timeout', 'the request was not sent in time'],
  HPE_HEADERS_TIMEOUT: [408, 'Request Timeout', 'the request headers were not sent in time'],
};

/** The `clientError` listener of the HTTP server: answers with JSON where the socket can still take it. */
export function answerClientError(err: NodeJS.ErrnoException & { rawPacket?: Buffer }, socket: Duplex): void {
  if (err.code === 'ECONNRESET' || !socket.writable) {
    socket.destroy();
    return;
  }
  const [status, reason, detail] = STATUS[err.code ?? ''] ?? [400, 'Bad Request', 'the request is not valid HTTP/1.1 (its request line or a header is malformed)'];
  // The path, where the request line got that far, picks the error shape (/api/v1 answers {detail}).
  const path = /^[A-Z]+ (\/\S*)/.exec(err.rawPacket?.toString('latin1', 0, 64) ?? '')?.[1] ?? '/';
  const body = JSON.stringify(errorBody(path, { status, detail, type: TYPES[status] ?? 'Error', extra: {} }));
  socket.end(`HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n`
    + `X-Content-Type-Options: nosniff\r\nCache-Control: no-store\r\nConnection: close\r\n\r\n${body}`);
}
