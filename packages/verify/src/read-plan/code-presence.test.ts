import type { Address, PublicClient } from "viem";
import { describe, expect, it } from "vitest";
import { codePresenceSize, DEFAULT_CODE_PRESENCE_URLS, hasCodeAt, limitCodePresence } from "./code-presence.js";

const A = "0x00000000000000000000000000000000000000aa" as Address;

/** A client of `url` whose contract has code from block 100 on, counting eth_getCode calls. */
function client(url: string, calls: { n: number }): PublicClient {
  return {
    transport: { url },
    getCode: async ({ blockNumber }: { blockNumber: bigint }) => {
      calls.n++;
      return blockNumber >= 100n ? "0x6001" : undefined;
    },
  } as unknown as PublicClient;
}

describe("code presence", () => {
  it("asks once per address and side of deployment, and keeps only the most recent endpoints", async () => {
    limitCodePresence(2);
    try {
      const calls = { n: 0 };
      const a = client("http://rpc-a.test", calls);
      expect(await hasCodeAt(a, A, 150n)).toBe(true);
      expect(await hasCodeAt(a, A, 200n)).toBe(true);
      expect(await hasCodeAt(a, A, 50n)).toBe(false);
      expect(await hasCodeAt(a, A, 40n)).toBe(false);
      expect(calls.n).toBe(2);
      // Two more endpoints: a, the least recently used, is forgotten and asked again.
      for (const url of ["http://rpc-b.test", "http://rpc-c.test"]) await hasCodeAt(client(url, calls), A, 150n);
      expect(codePresenceSize()).toMatchObject({ urls: 2, limit: 2 });
      expect(await hasCodeAt(a, A, 200n)).toBe(true);
      expect(calls.n).toBe(5);
      expect(codePresenceSize().urls).toBe(2);
    } finally {
      limitCodePresence(DEFAULT_CODE_PRESENCE_URLS);
    }
  });
});
