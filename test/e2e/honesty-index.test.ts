/**
 * GET /api/honesty-index on the devnet: realized APY per window equals convertToAssets read
 * independently at the same pinned blocks, and the board verifies against the signer binding.
 */

import { trustedSignersAt, verifyArtifact, verifySignerBinding } from "@kusd/core";
import { getAddress, parseAbiItem } from "viem";
import { describe, expect, it } from "vitest";
import { stack } from "../helpers/stack.js";

const s = stack();
const d = s.deployment;

describe("GET /api/honesty-index", () => {
  it("reproduces every window from convertToAssets at the pinned blocks, and is signed by the bound key", async () => {
    await s.caughtUp();
    const res = await fetch(`${s.indexerUrl}/api/honesty-index`);
    expect(res.status).toBe(200);
    const board = (await res.json()) as any;
    const abi = [parseAbiItem("function convertToAssets(uint256) view returns (uint256)")];
    const sk = board.vaults.find((v: any) => v.name === "skUSD");
    expect(sk.address).toBe(getAddress(s.addr("skUSD")));
    for (const days of [7, 30, 90]) {
      const w = sk.realized[`${days}d`];
      expect(w.fromBlock, `${days}d`).not.toBeNull();
      const read = async (block: number) => {
        const [assets, b] = await Promise.all([
          s.client.readContract({
            address: s.addr("skUSD"),
            abi,
            functionName: "convertToAssets",
            args: [10n ** 24n],
            blockNumber: BigInt(block),
          }),
          s.client.getBlock({ blockNumber: BigInt(block) }),
        ]);
        return { assets, t: Number(b.timestamp) };
      };
      const [from, to] = [await read(w.fromBlock), await read(w.toBlock)];
      expect(to.t - from.t).toBeGreaterThanOrEqual(days * 86_400);
      expect(w.realizedAPY).toBeCloseTo(
        (Number(to.assets) / Number(from.assets) - 1) * (365 / ((to.t - from.t) / 86_400)),
        7,
      );
    }
    const binding = await verifySignerBinding(
      await (await fetch(`${s.indexerUrl}/api/por/signer-registry`)).json(),
      getAddress(d.signers.operator),
    );
    const result = await verifyArtifact(board, {
      trustedSigner: (t) => trustedSignersAt(binding, t),
      maxAgeSeconds: 600,
    });
    expect(result.verified, JSON.stringify(result.checks)).toBe(true);
  });
});
