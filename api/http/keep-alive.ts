/**
 * How long an idle keep-alive connection stays open. Node closes one after 5 s by default, and a
 * client that sends on it as the server's timer fires gets "other side closed": a load balancer
 * in front of N API processes (docs/api.md) turns that into a 502, which is why their guidance is
 * a server timeout past their own idle timeout (60 s on the common ones). The same race failed
 * the fuzz suite in CI: with the machine loaded, the server's event loop stalled past 5 s and
 * closed the sockets its /health probe had just sent on.
 */
import type { Server } from "node:http";

export const KEEP_ALIVE_TIMEOUT_MS = 65_000;

export function keepIdleConnections(server: Server): void {
  server.keepAliveTimeout = KEEP_ALIVE_TIMEOUT_MS;
  // Node's own advice: headersTimeout above keepAliveTimeout, or a slow client's headers on a
  // reused connection meet the shorter of the two.
  server.headersTimeout = KEEP_ALIVE_TIMEOUT_MS + 1_000;
}
