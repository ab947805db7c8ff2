/**
 * The staking vaults' share price reads at one block, batched into a single `eth_call`.
 *
 * Why one call: a node answers each historical `eth_call` by loading that block's state, which
 * costs far more than the call itself (anvil: ~15 ms a call, 6 calls ~68 ms, one batch of 6
 * ~15 ms). The batch goes through an `aggregate3` contract (Multicall3's calling convention)
 * *deployless*: its creation code travels with the call (viem's `call({ code, data })`), so no
 * deployed contract is needed at that block and it works the same on the devnet and on Base.
 * The caller (the indexer) injects `call` and the creation code.
 */
import { type Abi, type Address, decodeFunctionResult, encodeFunctionData, type Hex, parseAbi } from "viem";

/** Multicall3's `aggregate3`, the batch's calling convention. */
export const aggregate3Fragment = parseAbi([
  "struct Call3 { address target; bool allowFailure; bytes callData; }",
  "struct Result { bool success; bytes returnData; }",
  "function aggregate3(Call3[] calls) returns (Result[] results)",
]);

/** The ERC-4626 and ERC-20 views a share price needs. */
export const shareViewsFragment = parseAbi([
  "function decimals() view returns (uint8)",
  "function convertToAssets(uint256 shares) view returns (uint256)",
  "function totalAssets() view returns (uint256)",
  "function totalSupply() view returns (uint256)",
]);

export type ShareReading = { assetsPerShare: bigint; totalAssets: bigint; totalSupply: bigint };

export type DeploylessCaller = { call(args: { code: Hex; data: Hex }): Promise<{ data?: Hex | undefined }> };

type View = "decimals" | "convertToAssets" | "totalAssets" | "totalSupply";

/** The fragment as a plain Abi, so one helper takes any of its views by name. */
const shareViews: Abi = shareViewsFragment;

const encode = (functionName: View, args?: readonly [bigint]) =>
  encodeFunctionData({ abi: shareViews, functionName, args });

/** A call to an address without code "succeeds" with no data: the vault is not deployed yet. */
const decoded = (functionName: View, result: { success: boolean; returnData: Hex }): bigint | null =>
  result.success && result.returnData !== "0x"
    ? BigInt(decodeFunctionResult({ abi: shareViews, functionName, data: result.returnData }) as bigint | number)
    : null;

/**
 * Reads `decimals` once per vault (fixed at construction), then `convertToAssets(one whole
 * share)`, `totalAssets` and `totalSupply` of every vault in one call per block. A vault without
 * code at the block is absent from the result; a deployed vault whose read fails fails the block.
 */
export function createSharePriceReader(aggregateCode: Hex) {
  const decimals = new Map<Address, number>();

  const aggregate = async (client: DeploylessCaller, calls: Array<{ target: Address; callData: Hex }>) => {
    const { data } = await client.call({
      code: aggregateCode,
      data: encodeFunctionData({
        abi: aggregate3Fragment,
        functionName: "aggregate3",
        args: [calls.map((c) => ({ ...c, allowFailure: true }))],
      }),
    });
    if (!data) throw new Error("the batched share price read returned no data");
    return decodeFunctionResult({ abi: aggregate3Fragment, functionName: "aggregate3", data });
  };

  return async function readSharePrices(
    client: DeploylessCaller,
    vaults: Address[],
  ): Promise<Map<Address, ShareReading>> {
    const unknown = vaults.filter((v) => !decimals.has(v));
    if (unknown.length > 0) {
      const results = await aggregate(
        client,
        unknown.map((target) => ({ target, callData: encode("decimals") })),
      );
      unknown.forEach((vault, i) => {
        const d = decoded("decimals", results[i]!);
        if (d !== null) decimals.set(vault, Number(d));
      });
    }
    const live = vaults.filter((v) => decimals.has(v));
    if (live.length === 0) return new Map();
    const results = await aggregate(
      client,
      live.flatMap((target) => [
        { target, callData: encode("convertToAssets", [10n ** BigInt(decimals.get(target)!)]) },
        { target, callData: encode("totalAssets") },
        { target, callData: encode("totalSupply") },
      ]),
    );
    const readings = new Map<Address, ShareReading>();
    live.forEach((vault, i) => {
      const parts = results.slice(3 * i, 3 * i + 3);
      // No code at this block (a start block may precede the deployment, and decimals may have
      // been learnt at a later block): a call to an empty account succeeds with no data.
      if (parts.every((r) => r.success && r.returnData === "0x")) return;
      const assetsPerShare = decoded("convertToAssets", results[3 * i]!);
      const totalAssets = decoded("totalAssets", results[3 * i + 1]!);
      const totalSupply = decoded("totalSupply", results[3 * i + 2]!);
      // Ponder must not store a price it did not read: throwing makes it retry, then halt.
      if (assetsPerShare === null || totalAssets === null || totalSupply === null) {
        throw new Error(`share price read of ${vault} failed: ${JSON.stringify(results.slice(3 * i, 3 * i + 3))}`);
      }
      readings.set(vault, { assetsPerShare, totalAssets, totalSupply });
    });
    return readings;
  };
}

/**
 * Reads kept ahead of the indexer: while block N is handled, the reads for the next blocks of
 * the interval are already on their way, so a slow historical `eth_call` overlaps the handlers in
 * between instead of holding them up. Reorg-safe by construction: the read ahead is pinned to the
 * hash the block had when it was read, and is used only when the indexed block has that hash.
 */
export function createBlockLookahead<T>() {
  const pending = new Map<bigint, Promise<{ hash: Hex; value: T } | null>>();
  return {
    /** The value read ahead for this block, or null (none, failed, or another hash). */
    async take(number: bigint, hash: Hex): Promise<T | null> {
      const ahead = pending.get(number);
      for (const n of pending.keys()) if (n <= number) pending.delete(n);
      const result = ahead ? await ahead : null;
      return result && result.hash === hash ? result.value : null;
    },
    /** Starts `read` for a later block unless one is on its way; a failure only means no head start. */
    start(number: bigint, read: () => Promise<{ hash: Hex; value: T } | null>): void {
      if (pending.has(number)) return;
      pending.set(
        number,
        read().catch(() => null),
      );
    },
  };
}
