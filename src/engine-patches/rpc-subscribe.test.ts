/**
 * rpc-poll-beside-ws (patches/README.md): with a WebSocket, Ponder's head subscription also polls
 * `eth_getBlockByNumber("latest")`. newHeads announces a block once, when it is mined; after a reorg
 * Ponder drops the head that revealed it and waits for the next one, which a quiet chain (the
 * devnet between tests, anvil after `evm_revert`) never announces.
 */
import type { AddressInfo } from "node:net";
import { custom } from "viem";
import { describe, expect, it } from "vitest";
import { WebSocketServer } from "ws";

type Rpc = {
  subscribe: (handlers: { onBlock: (block: { number: string }) => void; onError: (e: unknown) => void }) => void;
  unsubscribe: () => Promise<void>;
};
const { createRpc }: { createRpc: (args: object) => Rpc } = await import(
  new URL("../../node_modules/ponder/dist/esm/rpc/index.js", import.meta.url).href
);

const head = {
  hash: `0x${"1".repeat(64)}`,
  parentHash: `0x${"0".repeat(64)}`,
  number: "0x7",
  timestamp: "0x6553f100",
  logsBloom: `0x${"0".repeat(512)}`,
  transactions: [],
};

const silent = { trace() {}, debug() {}, info() {}, warn() {}, error() {} };
const logger = { ...silent, child: () => logger };
const metric = { observe() {}, inc() {} };

describe("Ponder's head subscription over a WebSocket (patched)", () => {
  it("gets the head by polling too, while the socket announces nothing", async () => {
    // A node whose newHeads subscription is accepted and then stays silent, as on a quiet chain.
    const sockets = new WebSocketServer({ host: "127.0.0.1", port: 0 });
    await new Promise((r) => sockets.once("listening", r));
    sockets.on("connection", (socket) =>
      socket.on("message", (data) => {
        const message = JSON.parse(String(data)) as { id: number; method: string };
        if (message.method === "eth_subscribe")
          socket.send(JSON.stringify({ jsonrpc: "2.0", id: message.id, result: "0x1" }));
      }),
    );
    const stops: Array<() => unknown> = [];
    const rpc = createRpc({
      common: {
        logger,
        metrics: { ponder_rpc_request_duration: metric, ponder_rpc_request_error_total: metric },
        shutdown: { add: (stop: () => unknown) => stops.push(stop) },
      },
      chain: {
        id: 8453,
        name: "base",
        rpc: custom({
          request: async ({ method }) => {
            if (method === "eth_getBlockByNumber") return head;
            throw new Error(`unexpected ${method}`);
          },
        }),
        ws: `ws://127.0.0.1:${(sockets.address() as AddressInfo).port}`,
        pollingInterval: 25,
      },
    });
    const heads: string[] = [];
    try {
      const got = new Promise<void>((resolve) =>
        rpc.subscribe({
          onBlock: (block) => {
            // The poll repeats: a second head shows it is polling, not a one-off read.
            if (heads.push(block.number) === 2) resolve();
          },
          onError: () => {},
        }),
      );
      await Promise.race([got, new Promise((r) => setTimeout(r, 1_000))]);
    } finally {
      await rpc.unsubscribe();
      for (const stop of stops) stop();
      for (const socket of sockets.clients) socket.terminate();
      await new Promise((r) => sockets.close(r));
    }
    expect(heads, "the head, polled twice within a second at a 25 ms interval").toEqual(["0x7", "0x7"]);
  });
});
