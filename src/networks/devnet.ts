import { getAddress, type Address } from "viem";
import { readDeployment } from "../../devnet/deployment.js";
import type { Deployed, NetworkConfig } from "./types.js";

/** Copies of one RPC URL: Ponder budgets each URL separately, and anvil can take far more. */
const RPC_COPIES = 50;

export function devnetNetwork(): NetworkConfig {
  const d = readDeployment();
  const c = d.chains.base.contracts;
  const at = (name: string): Deployed => {
    const record = c[name];
    if (!record) throw new Error(`devnet deployment has no contract ${name}`);
    return { address: getAddress(record.address), startBlock: record.block };
  };
  const registryAccounts = new Set<Address>();
  for (const v of d.registry.versions) {
    for (const e of v.entries) registryAccounts.add(e.address);
    for (const x of v.disclosed_venue_deposits) registryAccounts.add(x.address);
  }
  return {
    name: "devnet",
    chains: {
      base: { id: 8453, rpc: Array(RPC_COPIES).fill(d.chains.base.rpcUrl), disableCache: true },
      ethereum: { id: 1, rpc: Array(RPC_COPIES).fill(d.chains.ethereum.rpcUrl), disableCache: true, startBlock: d.chains.ethereum.historyEndBlock },
    },
    kUSD: at("kUSD"),
    usdc: at("usdc"),
    weth: at("weth"),
    psms: { psmMint: at("psmMint"), psmRetiredMint: at("psmRetiredMint"), psmRedeemReserve: at("psmRedeemReserve") },
    stakingVaults: { skUSD: at("skUSD"), skUSDDeprecated: at("skUSDDeprecated") },
    depositVaults: { vaultV1: at("vaultV1"), vaultV2: at("vaultV2") },
    lsts: { wstETH: at("wstETH"), cbETH: at("cbETH") },
    lending: { lendingUSDC: at("lendingUSDC"), lendingEscrowKUSD: at("lendingEscrowKUSD") },
    registryAccounts: [...registryAccounts],
    otherOperatorContracts: ["timelock", "pauseGuardian"].filter((name) => c[name]).map((name) => at(name).address),
    sharePriceInterval: 25,
    reporting: {
      multisig: at("multisig").address,
      timelock: c.timelock ? at("timelock").address : null,
      treasury: at("treasury").address,
      insuranceFund: at("insuranceFund").address,
      operator: d.signers.operator,
      hedgeWatchOnly: d.accounts.hedgeWatchOnly?.address ?? null,
      incentiveEscrow: at("incentiveEscrow").address,
      ethUsdFeed: at("ethUsdFeed").address,
      venue: { name: "hyperliquid", url: process.env.KUSD_VENUE_URL ?? `${d.venue.url}/info`, account: d.venue.hedgeAccount, coin: d.venue.coin },
      signers: d.signers,
      publicRpc: { base: d.chains.base.rpcUrl, ethereum: d.chains.ethereum.rpcUrl },
      readRpc: {
        base: process.env.KUSD_READ_RPC_URL_8453 ?? d.chains.base.rpcUrl,
        ethereum: process.env.KUSD_READ_RPC_URL_1 ?? d.chains.ethereum.rpcUrl,
      },
    },
    registry: d.registry,
    yieldPolicy: { strategyCostFraction: 0.1, insuranceAllocation: 0.1, protocolFee: 0, feePhase: "genesis" },
    payments: {
      network: d.payments.network,
      recipient: getAddress(d.payments.recipient),
      builderCode: d.payments.builderCode,
      asset: { address: at("usdc").address, name: "USD Coin", version: "2", symbol: "USDC", decimals: 6 },
      facilitator: d.accounts.facilitator ? { kind: "local", rpcUrl: d.chains.base.rpcUrl, privateKey: d.accounts.facilitator.privateKey, pollingIntervalMs: 25 } : null,
    },
  };
}
