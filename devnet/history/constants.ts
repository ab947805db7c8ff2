/** Roles, amounts and the PSMs' configuration the scripted history uses (re-exported by devnet/history.ts). */

export { DEFAULT_ADMIN_ROLE, MANAGER_ROLE, MINTER_ROLE, STRATEGIST_ROLE } from "@kusd/core";

/** The operator's TimelockController minimum delay (getMinDelay() = 172800 on Base). */
export const TIMELOCK_DELAY = 172_800n;

export const usdc = (n: number | bigint) => BigInt(n) * 1_000_000n;
export const kusd = (n: number | bigint) => BigInt(n) * 10n ** 18n;

/**
 * The fee ladder configured on the deployed PSMs (underwriting memo, section 3): the flat
 * `swapFees[USDC]` of 10 bps below 50,000 USDC, then tiers as LOWER bounds in USDC units,
 * stored strictly descending (the v3 and live PSMs refuse any other order): from 1,000,000
 * 5 bps, from 250,000 7 bps, from 50,000 8 bps. The same ladder applies to mints.
 */
export const SWAP_FEE_BPS = 10n;
export const FEE_TIERS = [
  { threshold: usdc(1_000_000), feeBps: 5n },
  { threshold: usdc(250_000), feeBps: 7n },
  { threshold: usdc(50_000), feeBps: 8n },
] as const;

/** Which devnet contract reproduces each deployed PSM (see devnet/contracts). */
export const PSM_ARTIFACTS = {
  psmMint: "KUSDPSM",
  psmRetiredMint: "KUSDPSMV3",
  psmRedeemReserve: "KUSDPSMV1",
} as const;
export const PSM_KEYS = Object.keys(PSM_ARTIFACTS) as (keyof typeof PSM_ARTIFACTS)[];

/** The depeg check's oracle may be this old (the v3 and live PSMs default to one hour). */
export const USDC_FEED_MAX_DELAY = 48n * 3_600n;
