/**
 * The venue simulator's HTTP server: `POST /info` as the venue answers it, plus a fault switch
 * for tests (`POST /__sim/fault {"mode": "none" | "http500" | "timeout"}`).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { answerInfo, InfoRequestError } from "./info.js";

export type FaultMode = "none" | "http500" | "timeout";

export type VenueServerOptions = {
  port: number;
  host?: string;
  hedgeAccount: string;
  /** Unix seconds; defaults to the wall clock. */
  now?: () => number;
  fault?: FaultMode;
};

export type VenueServer = {
  url: string;
  server: Server;
  setFault(mode: FaultMode): void;
  close(): Promise<void>;
};

const FAULTS: readonly FaultMode[] = ["none", "http500", "timeout"];

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

/** Any page may read it, as the venue's public API (and anvil) answer browsers: the reserves page checks figures against it. */
const CORS = { "access-control-allow-origin": "*" };

function send(res: ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { "content-type": "application/json", ...CORS });
  res.end(JSON.stringify(body));
}

export async function startVenueServer(options: VenueServerOptions): Promise<VenueServer> {
  let fault: FaultMode = options.fault ?? "none";
  const now = options.now ?? (() => Math.floor(Date.now() / 1000));
  const hanging = new Set<ServerResponse>();

  const server = createServer(async (req, res) => {
    try {
      const raw = await readBody(req);
      if (req.method === "OPTIONS") {
        res.writeHead(204, {
          ...CORS,
          "access-control-allow-methods": "GET, POST",
          "access-control-allow-headers": "content-type",
        });
        return res.end();
      }
      if (req.method === "POST" && req.url === "/__sim/fault") {
        const mode = (JSON.parse(raw || "{}") as { mode?: FaultMode }).mode;
        if (!mode || !FAULTS.includes(mode))
          return send(res, 400, { error: `mode must be one of ${FAULTS.join(", ")}` });
        fault = mode;
        return send(res, 200, { mode });
      }
      if (req.method === "GET" && (req.url === "/" || req.url === "/health")) {
        return send(res, 200, { ok: true, fault });
      }
      if (req.method !== "POST" || req.url !== "/info") return send(res, 404, { error: "not found" });
      if (fault === "http500") return send(res, 500, { error: "simulated venue failure" });
      if (fault === "timeout") {
        hanging.add(res); // never answered; closed on shutdown
        return;
      }
      let body: unknown;
      try {
        body = JSON.parse(raw);
      } catch {
        return send(res, 400, { error: "body is not JSON" });
      }
      return send(res, 200, answerInfo(body, { now: now(), hedgeAccount: options.hedgeAccount }));
    } catch (error) {
      if (error instanceof InfoRequestError) return send(res, error.status, { error: error.message });
      return send(res, 500, { error: "internal simulator error" });
    }
  });

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port, options.host ?? "127.0.0.1", () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${options.host ?? "127.0.0.1"}:${port}`,
    server,
    setFault: (mode) => (fault = mode),
    close: () =>
      new Promise<void>((resolve) => {
        for (const res of hanging) res.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
