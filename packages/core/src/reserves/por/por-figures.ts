/**
 * Derived figures: the numbers several sections of the report need (outstanding kUSD, the ETH
 * price, combined PSM USDC, vault v1's TVL, the holders' USD, the founder's skUSD stake),
 * computed once so that every section publishes the same value.
 */
import type { Address } from "viem";
import { outstandingKusd, recogniseL1Assets, vaultTvlUsd } from "../solvency-formulas.js";
import { orNull, toUnits } from "../units.js";
import { type ChainSnapshot, type HolderSnapshot, PSM_KEYS, type StakingVaultSnapshot } from "./snapshot.js";
import { add, eth, mul, sharesOf, usdc, v } from "./values.js";

export type VaultV1Figures = {
  /** The on-chain l1Assets mirror of venue equity, before reconciliation. */
  mirrorEth: number | null;
  mirrorUsd: number | null;
  venueEquity: number | null;
  l1: ReturnType<typeof recogniseL1Assets> | null;
  recognisedL1Eth: number | null;
  trackedEth: number | null;
  offChainEth: number | null;
  hedgingEth: number | null;
  tvlUsd: number | null;
};

export type FounderStake = { shares: bigint | null; fraction: number | null; kusd: number | null };

export type PorFigures = {
  block: number;
  price: number | null;
  supplyRaw: bigint | null;
  outstandingRaw: bigint | null;
  outstanding: number | null;
  psmUsdcTotal: number | null;
  psmKusdTotalRaw: bigint | null;
  vaultV1: VaultV1Figures;
  holdersUsd: { insuranceFund: number | null; treasury: number | null; multisig: number | null };
  /** Lower-cased addresses of the registry's externally owned accounts: the founder's wallets. */
  listedEoas: ReadonlySet<string>;
  founderStake: FounderStake;
};

export type ListedAccount = { address: Address; kind: "eoa" | "contract"; role: string };

const sum = (xs: (bigint | null)[]) =>
  xs.every((x) => x !== null) ? (xs as bigint[]).reduce((a, b) => a + b, 0n) : null;

export function vaultV1Figures(s: ChainSnapshot, price: number | null, venueEquity: number | null): VaultV1Figures {
  const v1 = s.vaultV1;
  const mirrorEth = eth(v1.l1Assets);
  const mirrorUsd = mul(mirrorEth, price);
  const l1 = mirrorUsd === null ? null : recogniseL1Assets(mirrorUsd, venueEquity);
  const recognisedL1Eth = l1 && price ? l1.recognisedUsd / price : l1 ? 0 : null;
  const trackedEth = eth(v1.wethBalance);
  const offChainEth = eth(v1.offChainAssets);
  const hedgingEth = eth(v1.hedgingReserve);
  const tvlUsd =
    trackedEth !== null && offChainEth !== null && recognisedL1Eth !== null && hedgingEth !== null && price !== null
      ? vaultTvlUsd(
          {
            trackedOnChainEth: trackedEth,
            offChainAssetsEth: offChainEth,
            recognisedL1AssetsEth: recognisedL1Eth,
            hedgingReserveEth: hedgingEth,
          },
          price,
        )
      : null;
  return { mirrorEth, mirrorUsd, venueEquity, l1, recognisedL1Eth, trackedEth, offChainEth, hedgingEth, tvlUsd };
}

/** The founder's skUSD: shares of the listed externally owned accounts, their fraction and kUSD claim. */
export function founderStake(sk: StakingVaultSnapshot, listedEoas: ReadonlySet<string>): FounderStake {
  const assets = v(sk.totalAssets);
  const supply = v(sk.totalSupply);
  const shares = sharesOf(sk, (a) => listedEoas.has(a.toLowerCase()));
  const fraction = shares !== null && supply ? Number(shares) / Number(supply) : null;
  const kusd = shares !== null && assets !== null && supply ? toUnits((assets * shares) / supply, 18) : null;
  return { shares, fraction, kusd };
}

export function computePorFigures(
  s: ChainSnapshot,
  venueEquity: number | null,
  listed: readonly ListedAccount[],
): PorFigures {
  const price = s.ethUsd?.answer ? toUnits(s.ethUsd.answer.value, s.ethUsd.decimals) : null;
  // Rule 1: outstanding = totalSupply − the kUSD the three PSMs hold; unknown if any read failed.
  const psmKusdRaw = PSM_KEYS.map((k) => v(s.psms[k].kusd));
  const supplyRaw = v(s.kusdTotalSupply);
  const psmKusdTotalRaw = sum(psmKusdRaw);
  const outstandingRaw =
    supplyRaw !== null && psmKusdTotalRaw !== null ? outstandingKusd(supplyRaw, psmKusdRaw as bigint[]) : null;
  const psmUsdcTotalRaw = sum(PSM_KEYS.map((k) => v(s.psms[k].usdc)));
  const holderUsd = (h: HolderSnapshot) => add(usdc(h.usdc), mul(eth(h.weth), price));
  const listedEoas = new Set(listed.filter((x) => x.kind === "eoa").map((x) => x.address.toLowerCase()));
  return {
    block: Number(s.blockNumber),
    price,
    supplyRaw,
    outstandingRaw,
    outstanding: orNull(outstandingRaw, (x) => toUnits(x, 18)),
    psmUsdcTotal: orNull(psmUsdcTotalRaw, (x) => toUnits(x, 6)),
    psmKusdTotalRaw,
    vaultV1: vaultV1Figures(s, price, venueEquity),
    holdersUsd: {
      insuranceFund: holderUsd(s.insuranceFund),
      treasury: holderUsd(s.treasury),
      multisig: holderUsd(s.multisig),
    },
    listedEoas,
    founderStake: founderStake(s.skUSD, listedEoas),
  };
}
