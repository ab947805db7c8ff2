import { createServer } from "node:net";

/** Ports this process has handed out: the OS may offer a just-closed port again at once. */
const handedOut = new Set<number>();

/**
 * A TCP port that was free a moment ago (the OS picks it), never one this process handed out
 * before: two ports asked for one process (an indexer's API and its private SQL listener) are
 * always two ports. (A CI run of rpc-storm.test.ts once read its private SQL from an API.)
 */
export async function freePort(): Promise<number> {
  for (;;) {
    const port = await osPort();
    if (!handedOut.has(port)) {
      handedOut.add(port);
      return port;
    }
  }
}

function osPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}
