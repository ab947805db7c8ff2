import type { Address } from "viem";

export type PsmKey = "psmMint" | "psmRetiredMint" | "psmRedeemReserve";
export type StakingVaultKey = "skUSD" | "skUSDDeprecated";
export type DepositVaultKey = "vaultV1" | "vaultV2";

export type Deployed = { address: Address; startBlock: number };

/** Everything the indexer needs to know about one deployment of the protocol. */
export type NetworkConfig = {
  name: "devnet" | "base";
  chains: {
    base: { id: 8453; rpc: string[]; disableCache: boolean };
    /** The ethereum chain is followed from `startBlock` only (no protocol contracts live there). */
    ethereum: { id: 1; rpc: string[]; disableCache: boolean; startBlock: number | "latest" };
  };
  kUSD: Deployed;
  usdc: Deployed;
  weth: Deployed;
  psms: Record<PsmKey, Deployed>;
  stakingVaults: Record<StakingVaultKey, Deployed>;
  depositVaults: Record<DepositVaultKey, Deployed>;
  /** Liquid-staking tokens whose exchange rate we observe (symbol → contract). */
  lsts: Record<string, Deployed>;
  /** EVK vaults of the operator's isolated lending market. */
  lending: Record<string, Deployed>;
  /** Every account of every published registry version, and disclosed venue deposit contracts. */
  registryAccounts: Address[];
  /** Blocks between share-price observations of the staking vaults. */
  sharePriceInterval: number;
};

export const earliest = (...deployed: Deployed[]) => Math.min(...deployed.map((d) => d.startBlock));
