/**
 * A local stand-in for a web service that receives alerts: it checks each request the way the
 * real API does (a `check` returning the service's own error answer), records what it accepted,
 * and can be told to fail the next N requests or rate-limit them, as the services do.
 */
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";

export type Answer = { status: number; body?: unknown; headers?: Record<string, string> };

export type Received = { path: string; headers: IncomingMessage["headers"]; body: unknown; raw: string };

export type Receiver = {
  url: string;
  received: Received[];
  /** The next `times` requests get `answer` instead of being checked and accepted. */
  failNext(times: number, answer: Answer): void;
  close(): Promise<void>;
};

/** `delayMs`: each answer waits this long (a slow service, so a test can stop a sender mid-delivery). */
export async function startReceiver(
  handle: (path: string, body: unknown, raw: string) => Answer,
  options: { delayMs?: number } = {},
): Promise<Receiver> {
  const received: Received[] = [];
  const failures: Answer[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const raw = Buffer.concat(chunks).toString("utf8");
      let body: unknown;
      try {
        body = JSON.parse(raw);
      } catch {
        body = undefined;
      }
      const path = req.url ?? "/";
      const answer = failures.shift() ?? handle(path, body, raw);
      setTimeout(() => respond(path, body, raw, answer), options.delayMs ?? 0);
    });
    const respond = (path: string, body: unknown, raw: string, answer: Answer) => {
      if (answer.status < 300) received.push({ path, headers: req.headers, body, raw });
      const text =
        answer.body === undefined ? "" : typeof answer.body === "string" ? answer.body : JSON.stringify(answer.body);
      res.writeHead(answer.status, {
        "content-type": typeof answer.body === "string" ? "text/plain" : "application/json",
        ...answer.headers,
      });
      res.end(text);
    };
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    failNext: (times, answer) => {
      for (let i = 0; i < times; i++) failures.push(answer);
    },
    close: () =>
      new Promise((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
