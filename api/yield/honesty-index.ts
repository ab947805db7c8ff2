/**
 * GET /api/honesty-index: a realized-yield board for ERC-4626 vaults (skUSD, the superseded
 * vault, and any peer configured by chain and address). Realized APY over 7, 30 and 90 days
 * comes from convertToAssets(one share) read at blocks pinned to those dates, with the
 * advertised APY beside it where known; the board is signed in the statements' scheme. Its
 * published shape (HonestyIndexSchema, the type loadHonestyIndex returns) is in
 * packages/core/src/yield/honesty-index/honesty-index-schema.ts.
 */

import {
  annualizedGrowth,
  BOARD_WINDOWS_DAYS,
  type BoardVault,
  type HonestyIndex,
  type HonestyIndexPayload,
  type HonestyIndexRow,
  isoTime,
  round,
  signPayload,
} from "@kusd/core";
import type { PublicClient } from "viem";
import { PinnedReader } from "../../packages/verify/src/index.js";
import type { ReportContext } from "../context.js";
import { type SigningKeys, signerFor } from "../statements/keys.js";
import { loadApy } from "./apy-service.js";

/** The last block at or before unix time `t` (binary search; anvil and Base both answer by number). */
export async function blockAtOrBefore(
  client: PublicClient,
  t: number,
  head: { number: bigint; timestamp: bigint },
): Promise<{ number: bigint; timestamp: number } | null> {
  if (t >= Number(head.timestamp)) return { number: head.number, timestamp: Number(head.timestamp) };
  let lo = 0n;
  let hi = head.number;
  let found: { number: bigint; timestamp: number } | null = null;
  while (lo <= hi) {
    const mid = (lo + hi) / 2n;
    const b = await client.getBlock({ blockNumber: mid });
    if (Number(b.timestamp) <= t) {
      found = { number: mid, timestamp: Number(b.timestamp) };
      lo = mid + 1n;
    } else hi = mid - 1n;
  }
  return found;
}

export type { BoardVault };

export async function loadHonestyIndex(
  ctx: ReportContext,
  keys: SigningKeys,
  vaults: readonly BoardVault[],
  now = Math.floor(Date.now() / 1000),
): Promise<HonestyIndex> {
  let expected: number | null = null;
  if (vaults.some((v) => v.advertised === "kusd-expected-apy"))
    // expectedAPY is ours alone: the market peers shown beside it do not change it.
    expected = (await loadApy(ctx, [], now).catch(() => null))?.expectedAPY ?? null;
  const heads = new Map<string, { number: bigint; timestamp: bigint }>();
  const rows: HonestyIndexRow[] = [];
  for (const v of vaults) {
    const client = v.chain === "base" ? ctx.base : ctx.ethereum;
    const rpc = v.chain === "base" ? ctx.network.reporting.publicRpc.base : ctx.network.reporting.publicRpc.ethereum;
    if (!heads.has(v.chain)) {
      const b = await client.getBlock({ blockTag: "latest" });
      heads.set(v.chain, { number: b.number!, timestamp: b.timestamp });
    }
    const head = heads.get(v.chain)!;
    const one = 10n ** BigInt(v.shareDecimals);
    const at = async (block: { number: bigint; timestamp: number }) => {
      const reader = new PinnedReader(client, block.number, rpc);
      const spec = { to: v.address, signature: "convertToAssets(uint256)(uint256)", args: [one] };
      const assets = await reader.call<bigint>(spec).catch(() => null);
      return assets === null
        ? null
        : {
            t: block.timestamp,
            assets,
            block: Number(block.number),
            command: reader.command(
              spec,
              `${v.name} convertToAssets(1 share) at block ${block.number}`,
              assets,
              v.assetDecimals,
            ),
          };
    };
    const end = await at({ number: head.number, timestamp: Number(head.timestamp) });
    // Filled below, one key per window: tsc checks each key is one the schema publishes.
    const windows = {} as HonestyIndexRow["realized"];
    const verify: string[] = end ? [end.command] : [];
    for (const days of BOARD_WINDOWS_DAYS) {
      const startBlock = await blockAtOrBefore(client, Number(head.timestamp) - days * 86_400, head);
      const start = startBlock ? await at(startBlock) : null;
      const apy = start && end ? annualizedGrowth(start, end) : null;
      if (start) verify.push(start.command);
      windows[`${days}d` as const] = {
        realizedAPY: apy === null ? null : round(apy, 8),
        fromBlock: start?.block ?? null,
        toBlock: end?.block ?? null,
        note: start ? undefined : "no share price that far back (the vault is younger than the window)",
      };
    }
    const advertised = v.advertised === "kusd-expected-apy" ? expected : v.advertised;
    rows.push({
      name: v.name,
      chain: v.chain,
      address: v.address,
      shareDecimals: v.shareDecimals,
      realized: windows,
      advertisedAPY: advertised === null ? null : round(advertised, 8),
      advertisedSource:
        v.advertised === "kusd-expected-apy" ? "/api/apy expectedAPY" : v.advertised === null ? null : "configured",
      verify,
    });
  }
  const payload: HonestyIndexPayload = {
    kind: "realized-yield-board",
    timestamp: now,
    method:
      "realized APY = (convertToAssets(1 share) now / convertToAssets(1 share) at the last block at or before now − N days − 1) × 365 / days",
    vaults: rows,
  };
  const signer = signerFor(keys, now);
  const signed = signer
    ? await signPayload(signer.account, JSON.parse(JSON.stringify(payload)) as typeof payload)
    : null;
  return {
    ...payload,
    updatedAt: isoTime(now),
    vaults: rows,
    ...(signed ?? { attestation_hash: null, signature: null, signer: null, signed_payload_canonical: null }),
  };
}
