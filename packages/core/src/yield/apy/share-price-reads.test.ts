import { type Address, decodeFunctionData, encodeFunctionResult, type Hex } from "viem";
import { describe, expect, it } from "vitest";
import {
  aggregate3Fragment as aggregate3Abi,
  createBlockLookahead,
  createSharePriceReader,
  shareViewsFragment as stakedKUSDAbi,
} from "./share-price-reads.js";

/** Stands for the aggregator's creation code (the e2e suite runs the real one against anvil). */
const aggregate3Bytecode = "0xc0de" as Hex;

type Vault = { decimals: number; totalAssets: bigint; totalSupply: bigint; reverts?: "totalSupply" };

/** A chain of a few vaults, answering the deployless aggregate the way a node would. */
function fakeChain(vaults: Record<Address, Vault>) {
  const calls: number[] = [];
  const client = {
    async call({ code, data }: { code: Hex; data: Hex }) {
      expect(code).toBe(aggregate3Bytecode);
      const { args } = decodeFunctionData({ abi: aggregate3Abi, data });
      calls.push(args[0].length);
      const results = args[0].map(({ target, callData }) => {
        const vault = vaults[target.toLowerCase() as Address];
        if (!vault) return { success: true, returnData: "0x" as Hex }; // no code: a call "succeeds" with nothing
        const { functionName, args: fnArgs } = decodeFunctionData({ abi: stakedKUSDAbi, data: callData });
        if (functionName === vault.reverts) return { success: false, returnData: "0x" as Hex };
        const result =
          functionName === "decimals"
            ? vault.decimals
            : functionName === "totalAssets"
              ? vault.totalAssets
              : functionName === "totalSupply"
                ? vault.totalSupply
                : functionName === "convertToAssets"
                  ? ((fnArgs![0] as bigint) * vault.totalAssets) / vault.totalSupply
                  : undefined;
        return {
          success: true,
          returnData: encodeFunctionResult({ abi: stakedKUSDAbi, functionName, result } as never),
        };
      });
      return { data: encodeFunctionResult({ abi: aggregate3Abi, functionName: "aggregate3", result: results }) };
    },
  };
  return { client, calls };
}

const A = "0x00000000000000000000000000000000000000a1" as Address;
const B = "0x00000000000000000000000000000000000000b2" as Address;

describe("createSharePriceReader", () => {
  it("reads every vault in one call, one whole share at the vault's own decimals", async () => {
    const { client, calls } = fakeChain({
      [A]: { decimals: 24, totalAssets: 1_100n * 10n ** 18n, totalSupply: 1_000n * 10n ** 24n },
      [B]: { decimals: 18, totalAssets: 3n * 10n ** 18n, totalSupply: 2n * 10n ** 18n },
    });
    const read = createSharePriceReader(aggregate3Bytecode);
    const first = await read(client, [A, B]);
    expect(first.get(A)).toEqual({
      assetsPerShare: 11n * 10n ** 17n,
      totalAssets: 1_100n * 10n ** 18n,
      totalSupply: 1_000n * 10n ** 24n,
    });
    expect(first.get(B)?.assetsPerShare).toBe(15n * 10n ** 17n);
    // decimals once (2 parts), then the 6 reads; the next block needs only the 6.
    await read(client, [A, B]);
    expect(calls).toEqual([2, 6, 6]);
  });

  it("leaves out a vault without code, and reads it once it has some", async () => {
    const vaults: Record<Address, Vault> = { [A]: { decimals: 18, totalAssets: 1n, totalSupply: 1n } };
    const { client } = fakeChain(vaults);
    const read = createSharePriceReader(aggregate3Bytecode);
    expect([...(await read(client, [A, B])).keys()]).toEqual([A]);
    vaults[B] = { decimals: 18, totalAssets: 2n, totalSupply: 1n };
    expect((await read(client, [A, B])).get(B)?.assetsPerShare).toBe(2n * 10n ** 18n);
  });

  it("leaves out a vault without code at this block even once its decimals are known from a later one", async () => {
    // The read ahead of the indexer learns the decimals at a block after the deployment; the
    // handler then reads an earlier block (its start block precedes the deployment).
    const vaults: Record<Address, Vault> = { [A]: { decimals: 24, totalAssets: 1n, totalSupply: 1n } };
    const later = fakeChain(vaults);
    const read = createSharePriceReader(aggregate3Bytecode);
    expect([...(await read(later.client, [A])).keys()]).toEqual([A]);
    const earlier = fakeChain({});
    expect([...(await read(earlier.client, [A])).keys()]).toEqual([]);
  });

  it("fails the block when a part of a deployed vault's reading fails, rather than storing a guess", async () => {
    const { client } = fakeChain({ [A]: { decimals: 18, totalAssets: 1n, totalSupply: 1n, reverts: "totalSupply" } });
    await expect(createSharePriceReader(aggregate3Bytecode)(client, [A])).rejects.toThrow(
      /share price read of 0x0+a1 failed/,
    );
  });
});

describe("createBlockLookahead", () => {
  const H1 = "0x01" as Hex;
  const H2 = "0x02" as Hex;

  it("hands over a read made ahead when the block still has the hash it was read at", async () => {
    const ahead = createBlockLookahead<string>();
    ahead.start(10n, async () => ({ hash: H1, value: "read at 10" }));
    expect(await ahead.take(10n, H1)).toBe("read at 10");
    expect(await ahead.take(10n, H1)).toBe(null); // taken once
  });

  it("drops a read whose block was replaced by a reorg, and one that failed", async () => {
    const ahead = createBlockLookahead<string>();
    ahead.start(10n, async () => ({ hash: H1, value: "old fork" }));
    expect(await ahead.take(10n, H2)).toBe(null);
    ahead.start(20n, async () => {
      throw new Error("block not found");
    });
    expect(await ahead.take(20n, H1)).toBe(null);
  });

  it("starts one read per block and forgets reads for blocks already passed", async () => {
    const ahead = createBlockLookahead<number>();
    let reads = 0;
    const read = async () => ({ hash: H1, value: ++reads });
    ahead.start(10n, read);
    ahead.start(10n, read);
    ahead.start(5n, read);
    expect(reads).toBe(2);
    expect(await ahead.take(10n, H1)).toBe(1);
    expect(await ahead.take(5n, H1)).toBe(null);
  });
});
