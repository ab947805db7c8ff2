/**
 * GET /api/por (spec 2.3): assembles the unsigned reserves report from a block-pinned chain
 * snapshot, the venue read and the indexed history. Pure: every input is passed in, every
 * formula is one of solvency.ts / redemption-routing.ts / precedent.ts.
 */
import type { Address } from "viem";
import type { RegistryVersionConfig } from "../../core/network/registry-config.js";
import type { PsmKey } from "../../core/network/types.js";
import type { VenueAccountState } from "../venue/hyperliquid.js";
import type { ChainSnapshot, HolderSnapshot, Read, StakingVaultSnapshot } from "./chain-snapshot.js";
import { MINTER_ROLE, PSM_KEYS } from "./chain-snapshot.js";
import { buildPrecedent, type PrecedentInputs } from "./precedent.js";
import { redemptionDepth } from "../../core/reserves/redemption-routing.js";
import {
  aggregateCollateralRatio,
  collateralUsd,
  outstandingKusd,
  pct,
  psmSolvencyRatio,
  recogniseL1Assets,
  solvencyStatus,
  vaultTvlUsd,
} from "../../core/reserves/solvency.js";
import { isoTime, orNull, round, toUnits } from "../../core/reserves/units.js";

export const PSM_LABELS: Record<PsmKey, { label: string; role: string }> = {
  psmMint: { label: "live mint PSM", role: "mints kUSD for USDC and redeems; holds kUSD MINTER_ROLE" },
  psmRetiredMint: { label: "prior mint PSM (redeem-only)", role: "redeem-only since its MINTER_ROLE was revoked" },
  psmRedeemReserve: { label: "legacy redeem PSM", role: "redeem reserve of the first deployment; redeem-only" },
};

export type PorInputs = {
  chainId: number;
  snapshot: ChainSnapshot;
  /** Live venue account state, or null with the reason it is unknown. */
  venue: { state: VenueAccountState | null; reason: string | null; url: string | null; account: Address; readCommand: string | null };
  precedent: Omit<PrecedentInputs, "psms">;
  registry: readonly RegistryVersionConfig[];
  addresses: { kUSD: Address; usdc: Address; weth: Address; ethUsdFeed: Address | null };
  /** Accounts of the operator's registry (kind eoa = founder wallets). */
  listed: { address: Address; kind: "eoa" | "contract"; role: string }[];
  rpcChainLength: number | null;
  canonicalEndpoint: string;
  commandRpcUrl: string;
  indexedHead: { blockNumber: bigint; timestamp: number };
  atHead: boolean;
};

const v = <T>(r: Read<T>): T | null => (r ? r.value : null);
const cmds = (...c: (string | null | undefined)[]) => c.filter((x): x is string => typeof x === "string");
const cmd = <T>(r: Read<T>, field: string) => (r ? r.command(field) : null);
const eth = (r: Read<bigint>) => orNull(v(r), (x) => toUnits(x, 18));
/** A share amount in whole shares at the decimals the vault itself reports (null when unread). */
const inShares = (raw: bigint | null, decimals: Read<number>) => (raw === null || !decimals ? null : toUnits(raw, Number(decimals.value)));
const usdc = (r: Read<bigint>) => orNull(v(r), (x) => toUnits(x, 6));
const mul = (a: number | null, b: number | null) => (a === null || b === null ? null : a * b);
const add = (...xs: (number | null)[]) => (xs.some((x) => x === null) ? null : xs.reduce<number>((s, x) => s + x!, 0));

export function buildPorReport(i: PorInputs) {
  const s = i.snapshot;
  const block = Number(s.blockNumber);
  const price = s.ethUsd?.answer ? toUnits(s.ethUsd.answer.value, s.ethUsd.decimals) : null;

  // ---------------------------------------------------------------- liabilities (rule 1)
  const psmKusdRaw = PSM_KEYS.map((k) => v(s.psms[k].kusd));
  const psmUsdcRaw = PSM_KEYS.map((k) => v(s.psms[k].usdc));
  const supplyRaw = v(s.kusdTotalSupply);
  const psmKusdKnown = psmKusdRaw.every((x) => x !== null);
  const psmUsdcKnown = psmUsdcRaw.every((x) => x !== null);
  const outstandingRaw = supplyRaw !== null && psmKusdKnown ? outstandingKusd(supplyRaw, psmKusdRaw as bigint[]) : null;
  const outstanding = orNull(outstandingRaw, (x) => toUnits(x, 18));
  const psmUsdcTotalRaw = psmUsdcKnown ? (psmUsdcRaw as bigint[]).reduce((a, b) => a + b, 0n) : null;
  const psmUsdcTotal = orNull(psmUsdcTotalRaw, (x) => toUnits(x, 6));

  // ---------------------------------------------------------------- vault v1 (rules 1–3)
  const v1 = s.vaultV1;
  const mirrorEth = eth(v1.l1Assets);
  const mirrorUsd = mul(mirrorEth, price);
  const venueEquity = i.venue.state?.equityUsd ?? null;
  const l1 = mirrorUsd === null ? null : recogniseL1Assets(mirrorUsd, venueEquity);
  const recognisedL1Eth = l1 && price ? l1.recognisedUsd / price : l1 ? 0 : null;
  const trackedEth = eth(v1.wethBalance);
  const offChainEth = eth(v1.offChainAssets);
  const hedgingEth = eth(v1.hedgingReserve);
  const v1Tvl =
    trackedEth !== null && offChainEth !== null && recognisedL1Eth !== null && hedgingEth !== null && price !== null
      ? vaultTvlUsd({ trackedOnChainEth: trackedEth, offChainAssetsEth: offChainEth, recognisedL1AssetsEth: recognisedL1Eth, hedgingReserveEth: hedgingEth }, price)
      : null;

  // ---------------------------------------------------------------- holders
  const holderUsd = (h: HolderSnapshot) => add(usdc(h.usdc), mul(eth(h.weth), price));
  const insuranceUsd = holderUsd(s.insuranceFund);

  // ---------------------------------------------------------------- solvency (rules 2–6)
  const psmRatio = psmUsdcTotal !== null && outstanding !== null ? psmSolvencyRatio(psmUsdcTotal, outstanding) : null;
  const collateral = v1Tvl !== null && insuranceUsd !== null && psmUsdcTotal !== null ? collateralUsd({ vaultV1TvlUsd: v1Tvl, insuranceFundUsd: insuranceUsd, psmUsdc: psmUsdcTotal }) : null;
  const aggregate = collateral !== null && outstanding !== null ? aggregateCollateralRatio(collateral, outstanding) : null;

  // ---------------------------------------------------------------- minter role (spec rules 1–3)
  const minterRead = s.psms.psmMint.holdsMinterRole;
  const minterRole = {
    role: "MINTER_ROLE",
    roleHash: MINTER_ROLE,
    holder: s.psms.psmMint.address,
    holdsRole: minterRead ? minterRead.value : null,
    readStatus: minterRead ? "live-read" : "read-failed",
    readBlock: block,
    note: minterRead
      ? "Read from kUSD hasRole(MINTER_ROLE, live mint PSM) at the report's block on every request."
      : "The hasRole read did not land this request: holdsRole is unknown (null), not false.",
    verifyVia: cmds(cmd(minterRead, "minterRole.holdsRole")),
  };

  // ---------------------------------------------------------------- staking vaults
  const listedEoas = new Set(i.listed.filter((x) => x.kind === "eoa").map((x) => x.address.toLowerCase()));
  const sharesOf = (vault: StakingVaultSnapshot, pick: (a: Address) => boolean) => {
    let total = 0n;
    for (const x of vault.listedShares) {
      if (!pick(x.account)) continue;
      if (!x.shares) return null;
      total += x.shares.value;
    }
    return total;
  };
  const sk = s.skUSD;
  const skAssets = v(sk.totalAssets);
  const skSupply = v(sk.totalSupply);
  const founderShares = sharesOf(sk, (a) => listedEoas.has(a.toLowerCase()));
  const founderFraction = founderShares !== null && skSupply ? Number(founderShares) / Number(skSupply) : null;
  const founderStakedKusd = founderShares !== null && skAssets !== null && skSupply ? toUnits((skAssets * founderShares) / skSupply, 18) : null;
  const stakedVault = {
    address: sk.address,
    version: "v2",
    role: "live ERC-4626 kUSD staking vault (share token skUSD)",
    asset: "kUSD",
    assetAddress: i.addresses.kUSD,
    totalAssetsKUSD: orNull(skAssets, (x) => toUnits(x, 18)),
    totalAssetsWei: orNull(skAssets, String),
    shareDecimals: v(sk.shareDecimals),
    totalSupplyShares: inShares(skSupply, sk.shareDecimals),
    pricePerShare: skAssets !== null && skSupply && sk.shareDecimals ? toUnits(skAssets, 18) / toUnits(skSupply, Number(sk.shareDecimals.value)) : null,
    convertToAssetsOneShare: orNull(v(sk.assetsPerShare), (x) => toUnits(x, 18)),
    tvlUSD: orNull(skAssets, (x) => toUnits(x, 18)),
    countedInSolvency: false,
    ownership: {
      scope: "shares held by the operator's own externally owned accounts in the account registry",
      founderOwnedShares: inShares(founderShares, sk.shareDecimals),
      founderOwnedFraction: round(founderFraction, 8),
      founderOwnedUSD: round(founderStakedKusd),
      custody: "operator wallets (self-custody), listed in the account registry",
      ref: "reserves.protocolOwnedReserves.components.stakedVaultDeposits",
      seeAlso: "/api/por/accounts",
    },
    note: "kUSD in the staking vault is already inside outstanding kUSD (liability side); counting it as collateral would double-count. Share amounts use the vault's own decimals() (24 on the deployed skUSD, against kUSD's 18). pricePerShare = totalAssets / totalSupply; convertToAssets(one whole share) can differ in the last decimals while a yield distribution vests.",
    verifyVia: cmds(cmd(sk.shareDecimals, "stakedVault.shareDecimals"), cmd(sk.totalAssets, "stakedVault.totalAssetsWei"), cmd(sk.totalSupply, "stakedVault.totalSupplyShares"), cmd(sk.assetsPerShare, "stakedVault.convertToAssetsOneShare"), ...sk.listedShares.filter((x) => listedEoas.has(x.account.toLowerCase())).map((x) => cmd(x.shares, `shares of listed account ${x.account}`))),
  };

  const dep = s.skUSDDeprecated;
  const depAssets = v(dep.totalAssets);
  const depSupply = v(dep.totalSupply);
  const depRedeemable = v(dep.redeemable);
  const protocolShares = sharesOf(dep, () => true);
  const externalShares = protocolShares !== null && depSupply !== null ? depSupply - protocolShares : null;
  const externalKusd = externalShares !== null && depRedeemable !== null && depSupply ? (depRedeemable * externalShares) / depSupply : null;
  const orphanRaw = depAssets !== null && depRedeemable !== null ? depAssets - depRedeemable : null;
  const stakedVaultDeprecated = {
    address: dep.address,
    version: "v1",
    status: "SUPERSEDED",
    role: "superseded kUSD staking vault (replaced by the live skUSD vault); residual dust only",
    asset: "kUSD",
    assetAddress: i.addresses.kUSD,
    totalAssetsKUSD: orNull(depAssets, (x) => toUnits(x, 18)),
    totalAssetsWei: orNull(depAssets, String),
    kusdBalanceKUSD: eth(dep.kusdBalance),
    totalSupplySharesRaw: orNull(depSupply, String),
    shareDecimals: v(dep.shareDecimals),
    sharesNote: "Share counts of this vault are published in raw units only (shares of shareDecimals decimals at dust level read as misleading fractions); ownership is a ratio of raw counts.",
    tvlUSD: orNull(depAssets, (x) => toUnits(x, 18)),
    countedInSolvency: false,
    ownership: {
      scope: "raw share units of the superseded vault",
      protocolOwnedSharesRaw: orNull(protocolShares, String),
      externalOwnedSharesRaw: orNull(externalShares, String),
      externalOwnedFraction: externalShares !== null && depSupply ? Number(externalShares) / Number(depSupply) : null,
      externalOwnedKUSD: orNull(externalKusd, (x) => toUnits(x, 18)),
      method: "externalOwnedSharesRaw = totalSupply − balanceOf(every account of the registry), read at the report's block",
      holderAddressWithheld: true,
      note: "The external holder is a private individual; the address is deliberately withheld. Its shares are the remainder after every registry account's balance.",
    },
    redeemableKUSD: orNull(depRedeemable, (x) => toUnits(x, 18)),
    orphanKUSD: orNull(orphanRaw, (x) => toUnits(x, 18)),
    orphanNote: "orphanKUSD = totalAssets − convertToAssets(totalSupply): kUSD that no share can claim (absorbed by the ERC-4626 virtual shares after the stakers left). redeemableKUSD is what all shares together can withdraw.",
    note: "Not collateral: its kUSD is inside outstanding kUSD.",
    verifyVia: cmds(cmd(dep.totalAssets, "stakedVaultDeprecated.totalAssetsWei"), cmd(dep.totalSupply, "stakedVaultDeprecated.totalSupplySharesRaw"), cmd(dep.kusdBalance, "stakedVaultDeprecated.kusdBalanceKUSD"), cmd(dep.redeemable, "stakedVaultDeprecated.redeemableKUSD"), ...dep.listedShares.map((x) => cmd(x.shares, `shares of listed account ${x.account}`))),
  };

  // ---------------------------------------------------------------- deposit vaults
  const v2 = s.vaultV2;
  const v2Assets = v(v2.totalAssets);
  const vaultV2 = {
    address: v2.address,
    version: "v2",
    role: "live deposit vault (ERC-4626 over WETH)",
    minterRole,
    asset: "WETH",
    assetAddress: i.addresses.weth,
    totalAssetsETH: orNull(v2Assets, (x) => toUnits(x, 18)),
    totalAssetsWei: orNull(v2Assets, String),
    shareDecimals: v(v2.shareDecimals),
    totalSupplyShares: inShares(v(v2.totalSupply), v2.shareDecimals),
    wethBalanceETH: eth(v2.wethBalance),
    l1AssetsETH: eth(v2.l1Assets),
    tvlUSD: round(mul(orNull(v2Assets, (x) => toUnits(x, 18)), price)),
    countedInSolvency: false,
    note: "Vault v2 is attested (its state is published and signed) but not counted in solvency. The minterRole object reports the live mint PSM's kUSD MINTER_ROLE, the only minter.",
    verifyVia: cmds(cmd(v2.shareDecimals, "vaultV2.shareDecimals"), cmd(v2.totalAssets, "vaultV2.totalAssetsWei"), cmd(v2.totalSupply, "vaultV2.totalSupplyShares"), cmd(v2.wethBalance, "vaultV2.wethBalanceETH"), cmd(v2.l1Assets, "vaultV2.l1AssetsETH")),
  };

  const venueCmds = cmds(i.venue.readCommand);
  const vault = {
    address: v1.address,
    version: "v1",
    role: "retired deposit vault: holds residual WETH and a mirror of derivatives-venue equity",
    liveDepositVault: v2.address,
    reconciliation: "l1Assets (the on-chain mirror of venue equity) is recognised at min(mirror, live venue account equity); none of it when the venue cannot be read this cycle or the report is at a past block.",
    asset: "WETH",
    assetAddress: i.addresses.weth,
    assetAmount: trackedEth,
    tvlUSD: round(v1Tvl),
    totalSupplyShares: eth(v1.totalSupply),
    onChainTotalAssets: { eth: eth(v1.totalAssets), wei: orNull(v(v1.totalAssets), String), usd: round(mul(eth(v1.totalAssets), price)), source: "totalAssets() = WETH balance + offChainAssets + l1Assets + hedgingReserve (raw mirror included)" },
    composition: {
      trackedOnChain: { eth: trackedEth, usd: round(mul(trackedEth, price)), source: "WETH.balanceOf(vault)" },
      offChainAssets: { eth: offChainEth, usd: round(mul(offChainEth, price)), source: "offChainAssets()", policy: "strategist-reported, disclosed as reported" },
      l1Assets: {
        eth: round(recognisedL1Eth, 18),
        usd: round(l1?.recognisedUsd ?? null),
        onChainMirror: { eth: mirrorEth, usd: round(mirrorUsd), wei: orNull(v(v1.l1Assets), String), source: "l1Assets()" },
        liveVenueEquityUsd: venueEquity,
        excessUsd: round(l1?.excessUsd ?? null),
        reconciliationStatus: l1?.status ?? "unverified",
        venueRead: i.venue.reason ?? "live",
        source: `${i.venue.url ?? "venue not configured"} clearinghouseState(${i.venue.account}).marginSummary.accountValue`,
        venue: i.venue.account,
        verifyVia: cmds(cmd(v1.l1Assets, "vault.composition.l1Assets.onChainMirror.wei"), ...venueCmds),
      },
      hedgingReserve: { eth: hedgingEth, usd: round(mul(hedgingEth, price)), source: "hedgingReserve()" },
    },
    verifyVia: cmds(cmd(v1.totalAssets, "vault.onChainTotalAssets.wei"), cmd(v1.totalSupply, "vault.totalSupplyShares"), cmd(v1.wethBalance, "vault.composition.trackedOnChain.eth"), cmd(v1.offChainAssets, "vault.composition.offChainAssets.eth"), cmd(v1.hedgingReserve, "vault.composition.hedgingReserve.eth")),
  };

  // ---------------------------------------------------------------- PSMs
  const psmBlock = (k: PsmKey) => {
    const p = s.psms[k];
    return {
      address: p.address,
      role: PSM_LABELS[k].role,
      usdcHeld: usdc(p.usdc),
      kusdHeld: eth(p.kusd),
      paused: v(p.paused),
      ...(k === "psmMint" ? { minterRole } : {}),
      verifyVia: cmds(cmd(p.usdc, `${k}.usdcHeld`), cmd(p.kusd, `${k}.kusdHeld`)),
    };
  };
  const psmKusdTotalRaw = psmKusdKnown ? (psmKusdRaw as bigint[]).reduce((a, b) => a + b, 0n) : null;

  const holder = (h: HolderSnapshot, key: string) => ({
    address: h.address,
    usdc: usdc(h.usdc),
    weth: eth(h.weth),
    totalUSD: round(holderUsd(h)),
    verifyVia: cmds(cmd(h.usdc, `${key}.usdc`), cmd(h.weth, `${key}.weth`)),
  });
  const threshold = v(s.multisig.threshold);
  const owners = v(s.multisig.owners);

  // ---------------------------------------------------------------- protocol-owned (disclosure only)
  const wallet = eth(s.operator.kusd);
  const escrowed = orNull(v(s.operator.escrowKusd), (x) => toUnits(x, 18));
  const unstaked = add(wallet, escrowed ?? 0);
  const hw = s.hedgeWatchOnly;
  const hwEth = hw ? eth(hw.eth) : null;
  const hwWeth = hw ? eth(hw.weth) : null;
  const components = {
    vaultDeposits: { usd: round(v1Tvl), countedInSolvency: false, ref: "reserves.vault", source: "vault v1 tvlUSD; counted once, in the aggregate ratio, under reserves.vault" },
    stakedVaultDeposits: {
      address: sk.address,
      usd: round(founderStakedKusd),
      shares: inShares(founderShares, sk.shareDecimals),
      fractionOfVault: round(founderFraction, 8),
      countedInSolvency: false,
      ref: "reserves.stakedVault.ownership",
      custody: "operator wallets",
      source: "skUSD.balanceOf(listed operator accounts) × totalAssets / totalSupply",
      founderShareOfOutstandingKUSD: founderStakedKusd !== null && unstaked !== null && outstanding ? round((founderStakedKusd + unstaked) / outstanding, 8) : null,
      founderUnstakedKUSD: round(unstaked),
      founderUnstakedKUSDInWallet: wallet,
      founderKUSDEscrowedAsLendingCollateral: escrowed,
      disclosureNote: "Most outstanding kUSD is the founder's own, minted 1:1 against USDC in the PSMs; it is a liability like any other holder's.",
      escrowNote: "kUSD the operator escrows as collateral in the isolated lending market (EVK escrow vault); still outstanding kUSD.",
      verifyVia: cmds(cmd(s.operator.kusd, "founderUnstakedKUSDInWallet"), cmd(s.operator.escrowShares, "escrow vault shares of the operator"), cmd(s.operator.escrowKusd, "founderKUSDEscrowedAsLendingCollateral")),
    },
    ...(hw
      ? {
          founderWatchOnlyFloat: {
            address: hw.address,
            custody: "founder wallet on Base (self-custody)",
            nativeEth: hwEth,
            weth: hwWeth,
            totalEth: add(hwEth, hwWeth),
            usd: round(mul(add(hwEth, hwWeth), price)),
            countedInSolvency: false,
            role: "hedge_base_watch_only",
            hedgeScope: "watched by the hedge; not vault collateral",
            verifyVia: cmds(cmd(hw.eth, "founderWatchOnlyFloat.nativeEth"), cmd(hw.weth, "founderWatchOnlyFloat.weth")),
          },
        }
      : {}),
    treasury: { address: s.treasury.address, usd: round(holderUsd(s.treasury)), countedInSolvency: false, ref: "reserves.treasury", source: "USDC and WETH balances" },
    insuranceFund: { address: s.insuranceFund.address, usd: round(insuranceUsd), countedInSolvency: true, ref: "reserves.insuranceFund", source: "USDC and WETH balances" },
    multisig: { address: s.multisig.address, usd: round(holderUsd(s.multisig)), countedInSolvency: false, ref: "reserves.multisig", source: "USDC and WETH balances" },
  };
  const protocolOwnedTotal = add(...Object.values(components).map((c) => (c as { usd: number | null }).usd));

  // ---------------------------------------------------------------- redemption depth
  const reserves = PSM_KEYS.map((k) => ({
    key: k,
    address: s.psms[k].address,
    reserveUsdc: v(s.psms[k].usdc) ?? 0n,
    canServeRedemptions: v(s.psms[k].paused) === false && (v(s.psms[k].usdc) ?? 0n) > 0n,
  }));
  const depth = redemptionDepth(reserves);
  const pctOf = (raw: bigint) => (outstanding ? pct(toUnits(raw, 6) / outstanding) : null);

  return {
    protocol: "kUSD",
    chain: "base",
    chainId: i.chainId,
    blockNumber: block,
    timestamp: isoTime(s.blockTimestamp),
    atHead: i.atHead,
    reserves: {
      vault,
      vaultV2,
      stakedVault,
      stakedVaultDeprecated,
      insuranceFund: holder(s.insuranceFund, "insuranceFund"),
      treasury: holder(s.treasury, "treasury"),
      multisig: {
        ...holder(s.multisig, "multisig"),
        threshold: threshold !== null && owners !== null ? `${threshold}-of-${owners.length}` : null,
        verifyVia: cmds(cmd(s.multisig.threshold, "multisig.threshold (N)"), cmd(s.multisig.owners, "multisig.threshold (M: the owners)"), cmd(s.multisig.usdc, "multisig.usdc"), cmd(s.multisig.weth, "multisig.weth")),
      },
      psm: {
        address: s.psms.psmRedeemReserve.address,
        addressPrevMint: s.psms.psmRetiredMint.address,
        addressMint: s.psms.psmMint.address,
        usdcHeld: psmUsdcTotal,
        kusdHeld: orNull(psmKusdTotalRaw, (x) => toUnits(x, 18)),
        kusdHeldWei: orNull(psmKusdTotalRaw, String),
      },
      psmRedeemReserve: psmBlock("psmRedeemReserve"),
      psmRetiredMint: psmBlock("psmRetiredMint"),
      psmMint: psmBlock("psmMint"),
      protocolOwnedReserves: {
        role: "disclosure view of what the operator itself holds; never added to collateralUSD or to any ratio",
        totalUSD: round(protocolOwnedTotal),
        countedInSolvency: false,
        seedPolicy: {
          onSite: "every component is listed with its address and a reproduction command",
          canonical: "the component's own reserve block (ref) is canonical; this view only groups them",
          commitment: "operator-owned funds are disclosed, never presented as third-party backing",
        },
        components,
      },
    },
    liabilities: {
      kUSD: {
        address: i.addresses.kUSD,
        totalSupply: orNull(supplyRaw, (x) => toUnits(x, 18)),
        totalSupplyWei: orNull(supplyRaw, String),
        outstanding,
        outstandingWei: orNull(outstandingRaw, String),
        peg: "USD",
        verifyVia: cmds(cmd(s.kusdTotalSupply, "liabilities.kUSD.totalSupplyWei"), ...PSM_KEYS.map((k) => cmd(s.psms[k].kusd, `kUSD held by ${k} (subtracted for outstanding)`))),
      },
    },
    solvency: {
      status: solvencyStatus(psmRatio, aggregate),
      statusThresholds: "fully-backed: psmSolvencyRatio ≥ 1; backed-with-vault-collateral: psmSolvencyRatio < 1 and aggregateCollateralRatio ≥ 1; under-collateralised: aggregateCollateralRatio < 1; unknown: the deciding ratio could not be computed",
      psmSolvent: psmRatio === null ? null : psmRatio >= 1,
      psmSolvencyRatio: round(psmRatio, 8),
      psmSolvencyPct: pct(psmRatio),
      primaryBackingRatio: round(psmRatio, 8),
      collateralUSD: round(collateral),
      liabilitiesUSD: outstanding,
      aggregateCollateralRatio: round(aggregate, 8),
      aggregateCollateralRatioPct: pct(aggregate),
      aggregateBasis: "(vault v1 tvlUSD + insurance fund USD + combined PSM USDC) / outstanding kUSD. Vault v1 enters only this aggregate; staking vaults and vault v2 never count.",
      ratio: round(aggregate, 8),
      ratioPct: pct(aggregate),
      ratioDeprecated: "ratio and ratioPct are deprecated aliases of aggregateCollateralRatio and aggregateCollateralRatioPct",
    },
    redemptionDepth: {
      instantSingleTransactionUSDC: toUnits(depth.instantSingleTransactionUsdc, 6),
      instantSingleTransactionPctOfOutstanding: pctOf(depth.instantSingleTransactionUsdc),
      deepestLegAddress: depth.deepestLegAddress,
      totalReachableUSDC: toUnits(depth.totalReachableUsdc, 6),
      totalReachablePctOfOutstanding: pctOf(depth.totalReachableUsdc),
      totalReachableRequiresSequentialTransactions: depth.totalReachableRequiresSequentialTransactions,
      outstandingKUSD: outstanding,
      precedent: buildPrecedent({ ...i.precedent, psms: PSM_KEYS.map((k) => ({ key: k, address: s.psms[k].address, label: PSM_LABELS[k].label })) }),
      byContract: PSM_KEYS.map((k) => ({
        key: k,
        label: PSM_LABELS[k].label,
        address: s.psms[k].address,
        reserveUSDC: usdc(s.psms[k].usdc),
        pctOfOutstanding: orNull(v(s.psms[k].usdc), pctOf),
        redeemOnly: orNull(v(s.psms[k].holdsMinterRole), (h) => !h),
        canServeRedemptions: reserves.find((r) => r.key === k)!.canServeRedemptions,
      })),
      routing:
        "A redemption is one transaction against one PSM, paid only from that PSM's USDC. An amount routes to the smallest reserve that fully covers it; a larger amount splits across PSMs, deepest first, one transaction each. No external market route is offered. Plan an amount at /api/por/redemption-plan?amount=<kUSD>.",
      topUpMechanism: "The multisig may top up a PSM by a direct USDC transfer; mints deposit USDC into the live mint PSM only. USDC leaves a PSM by redemption, by a fee skim bounded by skimmableSurplus, or by an ERC-3156 flash loan repaid in the same transaction. There is no admin withdrawal.",
      disclosure: "A revoked MINTER_ROLE disables minting on a PSM, not redemption. Capacity figures are reserves at the report's block, not a promise of future liquidity.",
    },
    market: {
      ethPriceUSD: price,
      source: s.ethUsd ? `ETH / USD feed ${s.ethUsd.address} latestRoundData() at the report's block` : "no ETH / USD feed configured",
      updatedAt: s.ethUsd?.updatedAt ? isoTime(s.ethUsd.updatedAt) : null,
      verifyVia: cmds(s.ethUsd ? cmd(s.ethUsd.answer, "market.ethPriceUSD") : null),
    },
    methodology:
      "Every figure is a read at blockNumber (pinned; reproduce it with the verifyVia command beside it) or a fold of the indexed event history up to that block. Outstanding kUSD = totalSupply − kUSD held by the three PSMs. psmSolvencyRatio = combined PSM USDC / outstanding. collateralUSD = vault v1 tvlUSD + insurance fund USD + combined PSM USDC; vault v1 counts only in the aggregate. The venue mirror (l1Assets) counts at min(mirror, live venue equity). Protocol-owned reserves are a disclosure view, never added to any ratio. A read that fails is null, never guessed.",
    attestation: {
      kind: "unsigned-report",
      rpcChainLength: i.rpcChainLength,
      indexedHeadBlock: Number(i.indexedHead.blockNumber),
      canonicalEndpoint: i.canonicalEndpoint,
      signedEquivalent: "/api/por/signed",
      failedReads: s.failedReads,
      verifyVia: [`cast block-number --rpc-url ${i.commandRpcUrl}  # attestation.rpcChainLength (at report time)`, `cast block ${block} --rpc-url ${i.commandRpcUrl}  # blockNumber and timestamp`],
    },
  };
}

export type PorReport = ReturnType<typeof buildPorReport>;
