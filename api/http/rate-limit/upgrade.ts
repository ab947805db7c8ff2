/**
 * A WebSocket upgrade (GraphQL at /graphql, graphql/websocket.ts) charged as opening a
 * subscription: upgrades reach the HTTP server's 'upgrade' listener, not the app, so the charge is
 * made here, before the handshake. Over budget the upgrade is answered 429 as the app answers,
 * and the connection closed.
 */
import type { IncomingMessage } from "node:http";
import type { Duplex } from "node:stream";
import { errorBody } from "../errors.js";
import { clientAddress, clientKey } from "./client-identity.js";
import { COSTS } from "./cost-table.js";
import type { RateLimitParts } from "./middleware.js";
import { rateLimited } from "./refusal.js";

export type UpgradeListener = (request: IncomingMessage, socket: Duplex, head: Buffer) => void;

export function chargedUpgrade(o: RateLimitParts, upgrade: UpgradeListener): UpgradeListener {
  const points = COSTS.subscription.points;
  return (request, socket, head) => {
    const address = clientAddress(request, o.trustedProxies);
    if (address === null || o.exempt(address)) return upgrade(request, socket, head);
    // Node's server stops listening for the socket's errors once it hands an upgrade over: a
    // client that resets while the count is made must not throw where nobody listens.
    const ignore = () => {};
    socket.on("error", ignore);
    void o.store.consume(clientKey(address), points).then((consumed) => {
      if (socket.destroyed) return;
      if (consumed.outcome === "failed") o.metrics?.storeFailed();
      if (consumed.outcome !== "refused") {
        socket.off("error", ignore);
        return upgrade(request, socket, head);
      }
      o.metrics?.refused("subscription");
      const { error, headers } = rateLimited(o.store.policy, points, consumed.msBeforeNext);
      const body = JSON.stringify(errorBody(error.code, error.message, error.details));
      socket.end(
        [
          "HTTP/1.1 429 Too Many Requests",
          "Content-Type: application/json",
          `Content-Length: ${Buffer.byteLength(body)}`,
          ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`),
          "Connection: close",
          "",
          body,
        ].join("\r\n"),
      );
    });
  };
}
