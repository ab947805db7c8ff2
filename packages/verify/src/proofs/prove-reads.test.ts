/**
 * proveReads over what a real node answered (anvil, fixtures/): a read whose proof the RPC
 * withholds, garbles or refuses fails, named, and the check goes on; a proof that holds proves
 * the read.
 */
import type { NetworkConfig } from "@kusd/core";
import { type Address, type Hex, hexToBigInt, type PublicClient, pad, toHex } from "viem";
import { describe, expect, it } from "vitest";
import fixture from "./fixtures/devnet-block-1151.json" with { type: "json" };
import type { RpcHeader } from "./header.js";
import { proveReads } from "./prove-reads.js";
import type { RecordedRead } from "./recorded-reads.js";

const header = fixture.header as RpcHeader;
const usdc = fixture.usdc as Address;
const holder = fixture.holder as Address;
const other = (n: number) => ({ address: pad(toHex(n), { size: 20 }) as Address });

// Only USDC is read here; every other contract of the network stands at an address of its own.
const network = {
  name: "devnet",
  kUSD: other(1),
  usdc: { address: usdc },
  weth: other(2),
  depositVaults: { vaultV1: other(3), vaultV2: other(4) },
  stakingVaults: { skUSD: other(5), skUSDDeprecated: other(6) },
  psms: { psmMint: other(7), psmRetiredMint: other(8), psmRedeemReserve: other(9) },
} as unknown as NetworkConfig;

const balanceRead: RecordedRead = {
  kind: "call",
  spec: { to: usdc, signature: "balanceOf(address)", args: [holder] },
  outcome: { ok: true, value: hexToBigInt(fixture.balanceOf as Hex) },
};

/** An RPC that serves the fixture's header and answers eth_getProof with `proof`. */
const rpc = (proof: () => unknown) =>
  ({
    request: async ({ method }: { method: string }) => {
      if (method === "eth_getBlockByHash") return header;
      if (method === "eth_getProof") return proof();
      throw new Error(`unexpected ${method}`);
    },
  }) as unknown as PublicClient;

const check = (proof: () => unknown) =>
  proveReads([balanceRead], {
    client: rpc(proof),
    blockNumber: BigInt(header.number),
    blockTimestamp: BigInt(header.timestamp),
    anchor: { blockHash: header.hash as Hex, source: "the fixture" },
    network,
  });

describe("proveReads", () => {
  it("proves a balance from the account and storage proofs the node gave", async () => {
    const report = await check(() => fixture.proof);
    expect(report.reads.map((r) => r.status)).toEqual(["proven"]);
    expect(report.ok).toBe(true);
  });

  it("fails the read, named, when the account proof is refused: never reads its slots as anything", async () => {
    const report = await check(() => ({ ...fixture.proof, accountProof: fixture.proof.accountProof.slice(1) }));
    expect(report.reads).toEqual([
      expect.objectContaining({
        status: "failed",
        account: usdc,
        detail: `the account proof of ${usdc} does not hash to the block's state root`,
      }),
    ]);
    expect(report.ok).toBe(false);
  });

  it("fails the read when the RPC gives no proof of its slot", async () => {
    const report = await check(() => ({ ...fixture.proof, storageProof: [] }));
    expect(report.reads).toEqual([
      expect.objectContaining({ status: "failed", detail: expect.stringMatching(/gave no proof of slot/) }),
    ]);
  });

  it("fails the read when eth_getProof errs or answers what is not a proof", async () => {
    for (const proof of [
      () => {
        throw new Error("method eth_getProof not supported");
      },
      () => null,
      () => ({ accountProof: "0x" }),
    ]) {
      const report = await check(proof);
      expect(report.reads).toEqual([expect.objectContaining({ status: "failed", account: usdc })]);
    }
  });
});
