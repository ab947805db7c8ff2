/**
 * A venue that lies for the verifier's tests: it forwards `POST /info` to the real venue (the
 * devnet's simulator) and rewrites the answers of one request type, consistently, as a venue
 * endpoint run by someone who wants a figure confirmed would. Every other request and every other
 * part of an answer is the real venue's.
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";

export type VenueLie = (request: Record<string, unknown>, answer: unknown) => unknown;

export async function startLyingVenue(
  upstream: string,
  lie: VenueLie,
): Promise<{ url: string; close(): Promise<void> }> {
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString("utf8");
    const answer = await fetch(upstream, { method: "POST", headers: { "content-type": "application/json" }, body });
    const text = await answer.text();
    let out = text;
    if (answer.ok) {
      const request = JSON.parse(body) as Record<string, unknown>;
      out = JSON.stringify(lie(request, JSON.parse(text)));
    }
    res.writeHead(answer.status, { "content-type": "application/json" });
    res.end(out);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/info`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
