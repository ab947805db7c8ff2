/**
 * reserves.vault (vault v1, retired, the only deposit vault counted, and only in the aggregate
 * ratio) and reserves.vaultV2 (live, attested, never counted), with the minterRole object that
 * vaultV2 and psmMint share (spec 2.3 minterRole rule 3: the same object under both).
 */
import type { Address } from "viem";
import { z } from "zod";
import { addressSchema, hash32Schema, verifyViaSchema, weiSchema } from "../../schema-primitives.js";
import { RECONCILIATION } from "../solvency-formulas.js";
import { orNull, round, toUnits } from "../units.js";
import { Amount, CountedInSolvency } from "./json-types.js";
import type { PorFigures } from "./por-figures.js";
import { type ChainSnapshot, type DepositVaultSnapshot, MINTER_ROLE, type VenueRead } from "./snapshot.js";
import { cmd, cmds, eth, inShares, mul, v } from "./values.js";
import { VenueReadSchema, venueReadDoc } from "./venue-read.js";

export const MinterRoleSchema = z.strictObject({
  role: z.literal("MINTER_ROLE"),
  roleHash: hash32Schema.describe('keccak256("MINTER_ROLE")'),
  holder: addressSchema.describe("the live mint PSM, the only minter"),
  holdsRole: z
    .boolean()
    .nullable()
    .describe(
      "kUSD hasRole(MINTER_ROLE, holder), read live at the report's block; null, never false, when the read did not land",
    ),
  readStatus: z.enum(["live-read", "read-failed"]),
  readBlock: z.int(),
  note: z.string(),
  verifyVia: verifyViaSchema,
});
export type MinterRole = z.infer<typeof MinterRoleSchema>;

export function buildMinterRole(s: ChainSnapshot): MinterRole {
  const minterRead = s.psms.psmMint.holdsMinterRole;
  return {
    role: "MINTER_ROLE",
    roleHash: MINTER_ROLE,
    holder: s.psms.psmMint.address,
    holdsRole: minterRead ? minterRead.value : null,
    readStatus: minterRead ? "live-read" : "read-failed",
    readBlock: Number(s.blockNumber),
    note: minterRead
      ? "Read from kUSD hasRole(MINTER_ROLE, live mint PSM) at the report's block on every request."
      : "The hasRole read did not land this request: holdsRole is unknown (null), not false.",
    verifyVia: cmds(cmd(minterRead, "minterRole.holdsRole")),
  };
}

export const VaultV2Schema = z.strictObject({
  address: addressSchema,
  version: z.literal("v2"),
  role: z.string(),
  minterRole: MinterRoleSchema,
  asset: z.literal("WETH"),
  assetAddress: addressSchema,
  totalAssetsETH: Amount,
  totalAssetsWei: weiSchema.nullable(),
  shareDecimals: z.int().nullable().describe("decimals() of the share token, read, never assumed"),
  totalSupplyShares: Amount,
  wethBalanceETH: Amount,
  l1AssetsETH: Amount.describe("the on-chain mirror of venue margin"),
  tvlUSD: Amount,
  countedInSolvency: CountedInSolvency,
  note: z.string(),
  verifyVia: verifyViaSchema,
});
export type VaultV2 = z.infer<typeof VaultV2Schema>;

export function buildVaultV2(
  v2: DepositVaultSnapshot,
  minterRole: MinterRole,
  weth: Address,
  price: number | null,
): VaultV2 {
  const assets = v(v2.totalAssets);
  return {
    address: v2.address,
    version: "v2",
    role: "live deposit vault (ERC-4626 over WETH)",
    minterRole,
    asset: "WETH",
    assetAddress: weth,
    totalAssetsETH: orNull(assets, (x) => toUnits(x, 18)),
    totalAssetsWei: orNull(assets, String),
    shareDecimals: v(v2.shareDecimals),
    totalSupplyShares: inShares(v(v2.totalSupply), v2.shareDecimals),
    wethBalanceETH: eth(v2.wethBalance),
    l1AssetsETH: eth(v2.l1Assets),
    tvlUSD: round(
      mul(
        orNull(assets, (x) => toUnits(x, 18)),
        price,
      ),
    ),
    countedInSolvency: false,
    note: "Vault v2 is attested (its state is published and signed) but not counted in solvency. The minterRole object reports the live mint PSM's kUSD MINTER_ROLE, the only minter.",
    verifyVia: cmds(
      cmd(v2.shareDecimals, "vaultV2.shareDecimals"),
      cmd(v2.totalAssets, "vaultV2.totalAssetsWei"),
      cmd(v2.totalSupply, "vaultV2.totalSupplyShares"),
      cmd(v2.wethBalance, "vaultV2.wethBalanceETH"),
      cmd(v2.l1Assets, "vaultV2.l1AssetsETH"),
    ),
  };
}

const EthBucket = z.strictObject({ eth: Amount, usd: Amount, source: z.string() });

export const L1AssetsSchema = z.strictObject({
  eth: Amount.describe("the recognised part of the mirror (rule 2)"),
  usd: Amount.describe("min(on-chain mirror, venue equity); 0 when no venue equity counts (venueRead.source none)"),
  onChainMirror: z
    .strictObject({ eth: Amount, usd: Amount, wei: weiSchema.nullable(), source: z.string() })
    .describe("the raw mirror, always disclosed (rule 3)"),
  liveVenueEquityUsd: Amount.describe(
    "the venue equity the mirror is reconciled against: read live at the head, the recorded reading at a past block (venueRead); null when none counts",
  ),
  excessUsd: Amount.describe("mirror above that venue equity; null when none counts"),
  reconciliationStatus: z.enum([RECONCILIATION.reconciled, RECONCILIATION.capped, RECONCILIATION.unverified]),
  venueRead: VenueReadSchema,
  source: z.string(),
  venue: addressSchema,
  verifyVia: verifyViaSchema,
});
export type L1Assets = z.infer<typeof L1AssetsSchema>;

export function buildL1Assets(s: ChainSnapshot, f: PorFigures, venue: VenueRead): L1Assets {
  const { l1, mirrorEth, mirrorUsd, recognisedL1Eth } = f.vaultV1;
  return {
    eth: round(recognisedL1Eth, 18),
    usd: round(l1?.recognisedUsd ?? null),
    onChainMirror: {
      eth: mirrorEth,
      usd: round(mirrorUsd),
      wei: orNull(v(s.vaultV1.l1Assets), String),
      source: "l1Assets()",
    },
    liveVenueEquityUsd: f.vaultV1.venueEquity,
    excessUsd: round(l1?.excessUsd ?? null),
    reconciliationStatus: l1?.status ?? RECONCILIATION.unverified,
    venueRead: venueReadDoc(venue),
    source: `${venue.url ?? "venue not configured"} clearinghouseState(${venue.account}).marginSummary.accountValue`,
    venue: venue.account,
    verifyVia: cmds(
      cmd(s.vaultV1.l1Assets, "vault.composition.l1Assets.onChainMirror.wei"),
      ...cmds(venue.readCommand),
    ),
  };
}

export const VaultV1Schema = z.strictObject({
  address: addressSchema,
  version: z.literal("v1"),
  role: z.string(),
  liveDepositVault: addressSchema.describe("vault v2"),
  reconciliation: z.string(),
  asset: z.literal("WETH"),
  assetAddress: addressSchema,
  assetAmount: Amount.describe("WETH held on chain (trackedOnChain)"),
  tvlUSD: Amount.describe(
    "the four composition buckets at the report's ETH price (rule 1); enters the aggregate ratio only",
  ),
  totalSupplyShares: Amount,
  onChainTotalAssets: z.strictObject({ eth: Amount, wei: weiSchema.nullable(), usd: Amount, source: z.string() }),
  composition: z.strictObject({
    trackedOnChain: EthBucket,
    offChainAssets: EthBucket.extend({ policy: z.string() }),
    l1Assets: L1AssetsSchema,
    hedgingReserve: EthBucket,
  }),
  verifyVia: verifyViaSchema,
});
export type VaultV1 = z.infer<typeof VaultV1Schema>;

export function buildVaultV1(s: ChainSnapshot, f: PorFigures, venue: VenueRead, weth: Address): VaultV1 {
  const v1 = s.vaultV1;
  const { trackedEth, offChainEth, hedgingEth } = f.vaultV1;
  const bucket = (x: number | null) => ({ eth: x, usd: round(mul(x, f.price)) });
  return {
    address: v1.address,
    version: "v1",
    role: "retired deposit vault: holds residual WETH and a mirror of derivatives-venue equity",
    liveDepositVault: s.vaultV2.address,
    reconciliation:
      "l1Assets (the on-chain mirror of venue equity) is recognised at min(mirror, venue account equity): the equity read live at the head; at a past block, the reading a signed statement recorded nearest at or before it (at most 7200 s older); none of the mirror when there is no such equity (venueRead says why).",
    asset: "WETH",
    assetAddress: weth,
    assetAmount: trackedEth,
    tvlUSD: round(f.vaultV1.tvlUsd),
    totalSupplyShares: eth(v1.totalSupply),
    onChainTotalAssets: {
      eth: eth(v1.totalAssets),
      wei: orNull(v(v1.totalAssets), String),
      usd: round(mul(eth(v1.totalAssets), f.price)),
      source: "totalAssets() = WETH balance + offChainAssets + l1Assets + hedgingReserve (raw mirror included)",
    },
    composition: {
      trackedOnChain: { ...bucket(trackedEth), source: "WETH.balanceOf(vault)" },
      offChainAssets: {
        ...bucket(offChainEth),
        source: "offChainAssets()",
        policy: "strategist-reported, disclosed as reported",
      },
      l1Assets: buildL1Assets(s, f, venue),
      hedgingReserve: { ...bucket(hedgingEth), source: "hedgingReserve()" },
    },
    verifyVia: cmds(
      cmd(v1.totalAssets, "vault.onChainTotalAssets.wei"),
      cmd(v1.totalSupply, "vault.totalSupplyShares"),
      cmd(v1.wethBalance, "vault.composition.trackedOnChain.eth"),
      cmd(v1.offChainAssets, "vault.composition.offChainAssets.eth"),
      cmd(v1.hedgingReserve, "vault.composition.hedgingReserve.eth"),
    ),
  };
}
