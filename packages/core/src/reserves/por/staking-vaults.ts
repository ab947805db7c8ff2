/**
 * reserves.stakedVault (live skUSD) and reserves.stakedVaultDeprecated (superseded). Neither
 * counts in solvency (rule 6): the kUSD they hold is already inside outstanding kUSD.
 */
import type { Address } from "viem";
import { z } from "zod";
import { addressSchema, verifyViaSchema, weiSchema } from "../../schema-primitives.js";
import { orNull, round, toUnits } from "../units.js";
import { Amount, CountedInSolvency } from "./json-types.js";
import type { PorFigures } from "./por-figures.js";
import type { StakingVaultSnapshot } from "./snapshot.js";
import { cmd, cmds, eth, inShares, sharesOf, v } from "./values.js";

export const StakedVaultSchema = z.strictObject({
  address: addressSchema,
  version: z.literal("v2"),
  role: z.string(),
  asset: z.literal("kUSD"),
  assetAddress: addressSchema,
  totalAssetsKUSD: Amount,
  totalAssetsWei: weiSchema.nullable(),
  shareDecimals: z.int().nullable().describe("decimals() of skUSD (24 on the deployed vault, against kUSD's 18)"),
  totalSupplyShares: Amount,
  pricePerShare: Amount.describe("totalAssets / totalSupply"),
  convertToAssetsOneShare: Amount.describe(
    "convertToAssets(one whole share); can differ from pricePerShare in the last decimals while a yield distribution vests",
  ),
  tvlUSD: Amount,
  countedInSolvency: CountedInSolvency,
  ownership: z
    .strictObject({
      scope: z.string(),
      founderOwnedShares: Amount,
      founderOwnedFraction: Amount,
      founderOwnedUSD: Amount,
      custody: z.string(),
      ref: z.string(),
      seeAlso: z.string(),
    })
    .describe("shares held by the operator's own externally owned accounts in the account registry"),
  note: z.string(),
  verifyVia: verifyViaSchema,
});
export type StakedVault = z.infer<typeof StakedVaultSchema>;

export function buildStakedVault(sk: StakingVaultSnapshot, f: PorFigures, kusd: Address): StakedVault {
  const assets = v(sk.totalAssets);
  const supply = v(sk.totalSupply);
  const founder = f.founderStake;
  return {
    address: sk.address,
    version: "v2",
    role: "live ERC-4626 kUSD staking vault (share token skUSD)",
    asset: "kUSD",
    assetAddress: kusd,
    totalAssetsKUSD: orNull(assets, (x) => toUnits(x, 18)),
    totalAssetsWei: orNull(assets, String),
    shareDecimals: v(sk.shareDecimals),
    totalSupplyShares: inShares(supply, sk.shareDecimals),
    pricePerShare:
      assets !== null && supply && sk.shareDecimals
        ? toUnits(assets, 18) / toUnits(supply, Number(sk.shareDecimals.value))
        : null,
    convertToAssetsOneShare: orNull(v(sk.assetsPerShare), (x) => toUnits(x, 18)),
    tvlUSD: orNull(assets, (x) => toUnits(x, 18)),
    countedInSolvency: false,
    ownership: {
      scope: "shares held by the operator's own externally owned accounts in the account registry",
      founderOwnedShares: inShares(founder.shares, sk.shareDecimals),
      founderOwnedFraction: round(founder.fraction, 8),
      founderOwnedUSD: round(founder.kusd),
      custody: "operator wallets (self-custody), listed in the account registry",
      ref: "reserves.protocolOwnedReserves.components.stakedVaultDeposits",
      seeAlso: "/api/por/accounts",
    },
    note: "kUSD in the staking vault is already inside outstanding kUSD (liability side); counting it as collateral would double-count. Share amounts use the vault's own decimals() (24 on the deployed skUSD, against kUSD's 18). pricePerShare = totalAssets / totalSupply; convertToAssets(one whole share) can differ in the last decimals while a yield distribution vests.",
    verifyVia: cmds(
      cmd(sk.shareDecimals, "stakedVault.shareDecimals"),
      cmd(sk.totalAssets, "stakedVault.totalAssetsWei"),
      cmd(sk.totalSupply, "stakedVault.totalSupplyShares"),
      cmd(sk.assetsPerShare, "stakedVault.convertToAssetsOneShare"),
      ...sk.listedShares
        .filter((x) => f.listedEoas.has(x.account.toLowerCase()))
        .map((x) => cmd(x.shares, `shares of listed account ${x.account}`)),
    ),
  };
}

export const StakedVaultDeprecatedSchema = z.strictObject({
  address: addressSchema,
  version: z.literal("v1"),
  status: z.literal("SUPERSEDED"),
  role: z.string(),
  asset: z.literal("kUSD"),
  assetAddress: addressSchema,
  totalAssetsKUSD: Amount,
  totalAssetsWei: weiSchema.nullable(),
  kusdBalanceKUSD: Amount,
  totalSupplySharesRaw: weiSchema
    .nullable()
    .describe("raw share units only: dust-level shares read as misleading fractions"),
  shareDecimals: z.int().nullable(),
  sharesNote: z.string(),
  tvlUSD: Amount,
  countedInSolvency: CountedInSolvency,
  ownership: z.strictObject({
    scope: z.string(),
    protocolOwnedSharesRaw: weiSchema.nullable(),
    externalOwnedSharesRaw: weiSchema.nullable().describe("totalSupply − balanceOf(every account of the registry)"),
    externalOwnedFraction: Amount,
    externalOwnedKUSD: Amount,
    method: z.string(),
    holderAddressWithheld: z
      .literal(true)
      .describe("the external holder is a private individual; its address is deliberately withheld"),
    note: z.string(),
  }),
  redeemableKUSD: Amount.describe("convertToAssets(totalSupply): what all shares together can withdraw"),
  orphanKUSD: Amount.describe("totalAssets − redeemableKUSD: kUSD that no share can claim"),
  orphanNote: z.string(),
  note: z.string(),
  verifyVia: verifyViaSchema,
});
export type StakedVaultDeprecated = z.infer<typeof StakedVaultDeprecatedSchema>;

export function buildStakedVaultDeprecated(dep: StakingVaultSnapshot, kusd: Address): StakedVaultDeprecated {
  const assets = v(dep.totalAssets);
  const supply = v(dep.totalSupply);
  const redeemable = v(dep.redeemable);
  const protocolShares = sharesOf(dep, () => true);
  const externalShares = protocolShares !== null && supply !== null ? supply - protocolShares : null;
  const externalKusd =
    externalShares !== null && redeemable !== null && supply ? (redeemable * externalShares) / supply : null;
  return {
    address: dep.address,
    version: "v1",
    status: "SUPERSEDED",
    role: "superseded kUSD staking vault (replaced by the live skUSD vault); residual dust only",
    asset: "kUSD",
    assetAddress: kusd,
    totalAssetsKUSD: orNull(assets, (x) => toUnits(x, 18)),
    totalAssetsWei: orNull(assets, String),
    kusdBalanceKUSD: eth(dep.kusdBalance),
    totalSupplySharesRaw: orNull(supply, String),
    shareDecimals: v(dep.shareDecimals),
    sharesNote:
      "Share counts of this vault are published in raw units only (shares of shareDecimals decimals at dust level read as misleading fractions); ownership is a ratio of raw counts.",
    tvlUSD: orNull(assets, (x) => toUnits(x, 18)),
    countedInSolvency: false,
    ownership: {
      scope: "raw share units of the superseded vault",
      protocolOwnedSharesRaw: orNull(protocolShares, String),
      externalOwnedSharesRaw: orNull(externalShares, String),
      externalOwnedFraction: externalShares !== null && supply ? Number(externalShares) / Number(supply) : null,
      externalOwnedKUSD: orNull(externalKusd, (x) => toUnits(x, 18)),
      method:
        "externalOwnedSharesRaw = totalSupply − balanceOf(every account of the registry), read at the report's block",
      holderAddressWithheld: true,
      note: "The external holder is a private individual; the address is deliberately withheld. Its shares are the remainder after every registry account's balance.",
    },
    redeemableKUSD: orNull(redeemable, (x) => toUnits(x, 18)),
    orphanKUSD: orNull(assets !== null && redeemable !== null ? assets - redeemable : null, (x) => toUnits(x, 18)),
    orphanNote:
      "orphanKUSD = totalAssets − convertToAssets(totalSupply): kUSD that no share can claim (absorbed by the ERC-4626 virtual shares after the stakers left). redeemableKUSD is what all shares together can withdraw.",
    note: "Not collateral: its kUSD is inside outstanding kUSD.",
    verifyVia: cmds(
      cmd(dep.totalAssets, "stakedVaultDeprecated.totalAssetsWei"),
      cmd(dep.totalSupply, "stakedVaultDeprecated.totalSupplySharesRaw"),
      cmd(dep.kusdBalance, "stakedVaultDeprecated.kusdBalanceKUSD"),
      cmd(dep.redeemable, "stakedVaultDeprecated.redeemableKUSD"),
      ...dep.listedShares.map((x) => cmd(x.shares, `shares of listed account ${x.account}`)),
    ),
  };
}
