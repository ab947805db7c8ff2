/**
 * reserves.protocolOwnedReserves: a disclosure view of what the operator itself holds. Every
 * component is reported canonically under its own key (ref) or is not collateral, so the total
 * is never added to collateralUSD or to any ratio.
 */
import { z } from "zod";
import { addressSchema, verifyViaSchema } from "../../schema-primitives.js";
import { orNull, round, toUnits } from "../units.js";
import { Amount, CountedInSolvency } from "./json-types.js";
import type { PorFigures } from "./por-figures.js";
import type { ChainSnapshot, HolderSnapshot } from "./snapshot.js";
import { add, cmd, cmds, eth, inShares, mul, v } from "./values.js";

export const StakedVaultDepositsSchema = z.strictObject({
  address: addressSchema,
  usd: Amount,
  shares: Amount,
  fractionOfVault: Amount,
  countedInSolvency: CountedInSolvency,
  ref: z.string(),
  custody: z.string(),
  source: z.string(),
  founderShareOfOutstandingKUSD: Amount.describe("(founder's staked + unstaked kUSD) / outstanding kUSD"),
  founderUnstakedKUSD: Amount,
  founderUnstakedKUSDInWallet: Amount,
  founderKUSDEscrowedAsLendingCollateral: Amount.describe(
    "kUSD escrowed as collateral in the isolated lending market; still outstanding",
  ),
  disclosureNote: z.string(),
  escrowNote: z.string(),
  verifyVia: verifyViaSchema,
});
export type StakedVaultDeposits = z.infer<typeof StakedVaultDepositsSchema>;

export function buildStakedVaultDeposits(s: ChainSnapshot, f: PorFigures): StakedVaultDeposits {
  const founder = f.founderStake;
  const wallet = eth(s.operator.kusd);
  const escrowed = orNull(v(s.operator.escrowKusd), (x) => toUnits(x, 18));
  const unstaked = add(wallet, escrowed ?? 0);
  return {
    address: s.skUSD.address,
    usd: round(founder.kusd),
    shares: inShares(founder.shares, s.skUSD.shareDecimals),
    fractionOfVault: round(founder.fraction, 8),
    countedInSolvency: false,
    ref: "reserves.stakedVault.ownership",
    custody: "operator wallets",
    source: "skUSD.balanceOf(listed operator accounts) × totalAssets / totalSupply",
    founderShareOfOutstandingKUSD:
      founder.kusd !== null && unstaked !== null && f.outstanding
        ? round((founder.kusd + unstaked) / f.outstanding, 8)
        : null,
    founderUnstakedKUSD: round(unstaked),
    founderUnstakedKUSDInWallet: wallet,
    founderKUSDEscrowedAsLendingCollateral: escrowed,
    disclosureNote:
      "Most outstanding kUSD is the founder's own, minted 1:1 against USDC in the PSMs; it is a liability like any other holder's.",
    escrowNote:
      "kUSD the operator escrows as collateral in the isolated lending market (EVK escrow vault); still outstanding kUSD.",
    verifyVia: cmds(
      cmd(s.operator.kusd, "founderUnstakedKUSDInWallet"),
      cmd(s.operator.escrowShares, "escrow vault shares of the operator"),
      cmd(s.operator.escrowKusd, "founderKUSDEscrowedAsLendingCollateral"),
    ),
  };
}

export const WatchOnlyFloatSchema = z.strictObject({
  address: addressSchema,
  custody: z.string(),
  nativeEth: Amount,
  weth: Amount,
  totalEth: Amount,
  usd: Amount,
  countedInSolvency: CountedInSolvency,
  role: z.literal("hedge_base_watch_only"),
  hedgeScope: z.string(),
  verifyVia: verifyViaSchema,
});
export type WatchOnlyFloat = z.infer<typeof WatchOnlyFloatSchema>;

export function buildWatchOnlyFloat(
  hw: NonNullable<ChainSnapshot["hedgeWatchOnly"]>,
  price: number | null,
): WatchOnlyFloat {
  const nativeEth = eth(hw.eth);
  const weth = eth(hw.weth);
  return {
    address: hw.address,
    custody: "founder wallet on Base (self-custody)",
    nativeEth,
    weth,
    totalEth: add(nativeEth, weth),
    usd: round(mul(add(nativeEth, weth), price)),
    countedInSolvency: false,
    role: "hedge_base_watch_only",
    hedgeScope: "watched by the hedge; not vault collateral",
    verifyVia: cmds(cmd(hw.eth, "founderWatchOnlyFloat.nativeEth"), cmd(hw.weth, "founderWatchOnlyFloat.weth")),
  };
}

const holderComponentSchema = <C extends boolean>(counted: C) =>
  z.strictObject({
    address: addressSchema,
    usd: Amount,
    countedInSolvency: z.literal(counted),
    ref: z.string(),
    source: z.string(),
  });
const holderComponent = <C extends boolean>(
  h: HolderSnapshot,
  usd: number | null,
  countedInSolvency: C,
  ref: string,
) => ({ address: h.address, usd: round(usd), countedInSolvency, ref, source: "USDC and WETH balances" });

export const ComponentsSchema = z.strictObject({
  vaultDeposits: z
    .strictObject({ usd: Amount, countedInSolvency: CountedInSolvency, ref: z.string(), source: z.string() })
    .describe("vault v1 tvlUSD; counted once, in the aggregate ratio, under reserves.vault"),
  stakedVaultDeposits: StakedVaultDepositsSchema,
  founderWatchOnlyFloat: WatchOnlyFloatSchema.optional().describe(
    "present only when a watch-only hedge wallet is configured",
  ),
  treasury: holderComponentSchema(false),
  insuranceFund: holderComponentSchema(true).describe("the one component counted in solvency"),
  multisig: holderComponentSchema(false),
});
export type Components = z.infer<typeof ComponentsSchema>;

export function buildComponents(s: ChainSnapshot, f: PorFigures): Components {
  return {
    vaultDeposits: {
      usd: round(f.vaultV1.tvlUsd),
      countedInSolvency: false,
      ref: "reserves.vault",
      source: "vault v1 tvlUSD; counted once, in the aggregate ratio, under reserves.vault",
    },
    stakedVaultDeposits: buildStakedVaultDeposits(s, f),
    ...(s.hedgeWatchOnly ? { founderWatchOnlyFloat: buildWatchOnlyFloat(s.hedgeWatchOnly, f.price) } : {}),
    treasury: holderComponent(s.treasury, f.holdersUsd.treasury, false, "reserves.treasury"),
    insuranceFund: holderComponent(s.insuranceFund, f.holdersUsd.insuranceFund, true, "reserves.insuranceFund"),
    multisig: holderComponent(s.multisig, f.holdersUsd.multisig, false, "reserves.multisig"),
  };
}

export const ProtocolOwnedReservesSchema = z.strictObject({
  role: z.string(),
  totalUSD: Amount.describe("sum of the components' usd; never added to collateralUSD or to any ratio"),
  countedInSolvency: CountedInSolvency,
  seedPolicy: z.strictObject({ onSite: z.string(), canonical: z.string(), commitment: z.string() }),
  components: ComponentsSchema,
});
export type ProtocolOwnedReserves = z.infer<typeof ProtocolOwnedReservesSchema>;

export function buildProtocolOwnedReserves(s: ChainSnapshot, f: PorFigures): ProtocolOwnedReserves {
  const components = buildComponents(s, f);
  return {
    role: "disclosure view of what the operator itself holds; never added to collateralUSD or to any ratio",
    totalUSD: round(add(...Object.values(components).map((c) => c.usd))),
    countedInSolvency: false,
    seedPolicy: {
      onSite: "every component is listed with its address and a reproduction command",
      canonical: "the component's own reserve block (ref) is canonical; this view only groups them",
      commitment: "operator-owned funds are disclosed, never presented as third-party backing",
    },
    components,
  };
}
