/**
 * Requests Node's HTTP parser refuses before any handler runs (a malformed request line or header,
 * headers over the size limit, a request that never finished arriving) are answered by Node with
 * an empty body. These give them the API's JSON error shape instead: on the read replica's server,
 * and on Ponder's through its `onHttpServer` hook (src/api/server-middleware.ts).
 */
import type { Server } from "node:http";
import type { Duplex } from "node:stream";

/** The raw HTTP answer for a parser error code (`HPE_*` from llhttp). */
export function clientErrorResponse(parserCode: string | undefined): string {
  const [status, reason, code, message] =
    parserCode === "HPE_HEADER_OVERFLOW"
      ? [
          431,
          "Request Header Fields Too Large",
          "request_header_fields_too_large",
          "the request headers are larger than the server accepts",
        ]
      : parserCode === "HPE_REQUEST_TIMEOUT" || parserCode === "ERR_HTTP_REQUEST_TIMEOUT"
        ? [408, "Request Timeout", "request_timeout", "the request was not received in time"]
        : [400, "Bad Request", "malformed_request", "the request is not valid HTTP"];
  const body = JSON.stringify({ error: { code, message, details: { parser: parserCode ?? null } } });
  return `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`;
}

/** Answers the server's client errors with `clientErrorResponse`; a reset connection is simply closed. */
export function answerClientErrorsWithJson(server: Pick<Server, "on">): void {
  server.on("clientError", (error: NodeJS.ErrnoException, socket: Duplex) => {
    if (error.code === "ECONNRESET" || !socket.writable) return void socket.destroy();
    socket.end(clientErrorResponse(error.code));
  });
}
