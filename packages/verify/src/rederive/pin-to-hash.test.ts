import { custom } from "viem";
import { describe, expect, it } from "vitest";
import { pinnedToBlockHash } from "./pin-to-hash.js";

describe("reads pinned to the block hash (EIP-1898)", () => {
  const hash = `0x${"ab".repeat(32)}` as const;
  const seen: unknown[] = [];
  const transport = pinnedToBlockHash(
    custom({
      request: async ({ params }) => {
        seen.push(params);
        return "0x";
      },
    }),
    1151n,
    hash,
  )({});

  it("names the block by its hash where a read names it by number", async () => {
    await transport.request({ method: "eth_call", params: [{ to: "0x01" }, "0x47f"] });
    await transport.request({ method: "eth_getProof", params: ["0x01", [], "0x47f"] });
    expect(seen).toEqual([
      [{ to: "0x01" }, { blockHash: hash, requireCanonical: true }],
      ["0x01", [], { blockHash: hash, requireCanonical: true }],
    ]);
  });

  it("leaves other blocks and other methods alone", async () => {
    seen.length = 0;
    await transport.request({ method: "eth_call", params: [{ to: "0x01" }, "0x480"] });
    await transport.request({ method: "eth_getBlockByHash", params: [hash, false] });
    expect(seen).toEqual([
      [{ to: "0x01" }, "0x480"],
      [hash, false],
    ]);
  });
});
