/** Configuration as deployed on Base, shared by the scenario and the views. */
import { type Hex, keccak256, toHex } from "viem";

export const ROLE = {
  DEFAULT_ADMIN: `0x${"0".repeat(64)}` as Hex,
  MINTER: keccak256(toHex("MINTER_ROLE")),
  MANAGER: keccak256(toHex("MANAGER_ROLE")),
  ARBITRAGEUR: keccak256(toHex("ARBITRAGEUR_ROLE")),
  STRATEGIST: keccak256(toHex("STRATEGIST_ROLE")),
  PAUSER: keccak256(toHex("PAUSER_ROLE")),
} as const;

export const USDC = 10n ** 6n;
export const KUSD = 10n ** 18n;
/** kUSD wei per USDC unit. */
export const SCALE = KUSD / USDC;

/** swapFees[USDC] on every deployed PSM. */
export const BASE_FEE_BPS = 10n;

/** tieredFees[USDC] as deployed: thresholds strictly descending, in USDC units. */
export const TIERS: readonly { threshold: bigint; feeBps: bigint }[] = [
  { threshold: 1_000_000n * USDC, feeBps: 5n },
  { threshold: 250_000n * USDC, feeBps: 7n },
  { threshold: 50_000n * USDC, feeBps: 8n },
];

export const TIER_AMOUNTS_USDC: readonly bigint[] = TIERS.map((t) => t.threshold);
