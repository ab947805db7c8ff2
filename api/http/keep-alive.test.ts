import { createServer, request } from "node:http";
import type { AddressInfo } from "node:net";
import { describe, expect, it } from "vitest";
import { KEEP_ALIVE_TIMEOUT_MS, keepIdleConnections } from "./keep-alive.js";

describe("keepIdleConnections", () => {
  it("keeps an idle connection 65 s and says so to the client", async () => {
    const server = createServer((_req, res) => res.end("ok"));
    keepIdleConnections(server);
    expect(server.keepAliveTimeout).toBe(KEEP_ALIVE_TIMEOUT_MS);
    expect(server.headersTimeout).toBeGreaterThan(server.keepAliveTimeout);
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    try {
      const { port } = server.address() as AddressInfo;
      const keepAlive = await new Promise<string>((resolve, reject) =>
        request({ port, host: "127.0.0.1", headers: { connection: "keep-alive" } }, (res) => {
          res.resume();
          resolve(String(res.headers["keep-alive"]));
        })
          .on("error", reject)
          .end(),
      );
      expect(keepAlive).toBe(`timeout=${KEEP_ALIVE_TIMEOUT_MS / 1000}`);
    } finally {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    }
  });
});
