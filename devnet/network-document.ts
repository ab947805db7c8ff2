/**
 * The devnet's deployment written as a network document, in the shape of the operator's
 * registry file (admin / externalTokens / contracts / retired, named as the operator names
 * them) plus the `kusd` section: the indexer and the reports read the devnet exactly as they
 * read Base, through `networkFromDocument`. Also the service environment of a devnet: its
 * signing keys go to the service the way production's do (environment variables).
 */
import { writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import type { IndexedContractSpec, NetworkDocument } from "@kusd/config";
import { membershipMessage, PSM_VERSIONS, type PsmKey } from "@kusd/core";
import type { Address, Hex } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import type { ContractRecord, Deployment } from "./deployment.js";

/** Devnet contract name → where the operator's registry file keeps the deployed counterpart. */
const OPERATOR_NAMES = {
  contracts: {
    kUSD: "kUSD",
    skUSD: "skUSD",
    psmMint: "KUSDPSM",
    vaultV2: "KerneVault",
    treasury: "KerneTreasury",
    insuranceFund: "KerneInsuranceFund",
    incentiveEscrow: "IncentiveEscrow",
  },
  retired: {
    psmRedeemReserve: "KUSDPSM_v1_redeemReserve",
    psmRetiredMint: "KUSDPSM_2026_06_16_redeemReserve",
    skUSDDeprecated: "skUSD_v1",
    vaultV1: "KerneVault_v1",
    treasuryV2: "KerneTreasury_v2",
    treasuryV1: "KerneTreasury_v1",
  },
  admin: { multisig: "safe", timelock: "timelock", pauseGuardian: "pauseGuardian" },
  externalTokens: { usdc: "USDC", weth: "WETH", wstETH: "wstETH", cbETH: "cbETH" },
} as const;

export function devnetNetworkDocument(
  d: Deployment,
  signatures: Record<string, Record<string, Hex>> = {},
): NetworkDocument {
  const c = d.chains.base.contracts;
  const record = (name: string): ContractRecord => {
    const r = c[name];
    if (!r) throw new Error(`devnet deployment has no contract ${name}`);
    return r;
  };
  const section = <T>(names: Record<string, string>, shape: (a: Address) => T) =>
    Object.fromEntries(
      Object.entries(names)
        .filter(([name]) => c[name])
        .map(([name, operatorName]) => [operatorName, shape(c[name]!.address)]),
    );
  const ref = (name: string): string => {
    for (const [sec, names] of Object.entries(OPERATOR_NAMES)) {
      const operatorName = (names as Record<string, string>)[name];
      if (operatorName && c[name]) return `${sec}.${operatorName}`;
    }
    return record(name).address;
  };
  const indexed = (name: string): IndexedContractSpec => ({
    at: ref(name),
    startBlock: record(name).block,
    creationTx: record(name).creationTx ?? null,
    source: `devnet deployment: ${record(name).artifact} in block ${record(name).block}`,
  });
  const psm = (key: PsmKey) => ({ ...indexed(key), version: PSM_VERSIONS[key] });
  const rateEvent = (name: string) => ({ kind: "rate-event" as const, at: ref(name), startBlock: record(name).block });
  return {
    _comment:
      "Written by the devnet from its deployment, in the shape of the operator's registry file plus our kusd section.",
    chainId: d.chains.base.chainId,
    chainName: "base (devnet)",
    admin: section(OPERATOR_NAMES.admin, (a) => a) as NetworkDocument["admin"],
    externalTokens: section(OPERATOR_NAMES.externalTokens, (a) => a),
    contracts: section(OPERATOR_NAMES.contracts, (address) => ({ address })),
    retired: section(OPERATOR_NAMES.retired, (a) => a),
    kusd: {
      schema: "kusd-network/v1",
      name: "devnet",
      chains: {
        base: {
          id: 8453,
          genesisTimestamp: d.chains.base.genesisTimestamp,
          blockTime: 2,
          rpc: d.chains.base.rpcUrl,
          // Copies of one URL: Ponder budgets each URL separately, and anvil can take far more.
          rpcCopies: 50,
          // Ponder's stored chain data is keyed by chain id alone: a devnet made again shares 8453
          // with the last. It is reused only while its blocks are this devnet's
          // (src/schema-holder/sync-cache.ts), so a restart fetches nothing again, as on Base.
          disableCache: false,
          pollingIntervalMs: 1_000,
          // anvil answers JSON-RPC over WebSocket on the same port: new heads are pushed.
          ws: d.chains.base.rpcUrl.replace(/^http/, "ws"),
          ethGetLogsBlockRange: null,
        },
        ethereum: { id: 1, rpc: d.chains.ethereum.rpcUrl },
      },
      publicRpc: { base: d.chains.base.rpcUrl, ethereum: d.chains.ethereum.rpcUrl },
      contracts: {
        kUSD: indexed("kUSD"),
        psms: {
          psmMint: psm("psmMint"),
          psmRetiredMint: psm("psmRetiredMint"),
          psmRedeemReserve: psm("psmRedeemReserve"),
        },
        stakingVaults: { skUSD: indexed("skUSD"), skUSDDeprecated: indexed("skUSDDeprecated") },
        depositVaults: { vaultV1: indexed("vaultV1"), vaultV2: indexed("vaultV2") },
        lending: { lendingUSDC: indexed("lendingUSDC"), lendingEscrowKUSD: indexed("lendingEscrowKUSD") },
      },
      tokens: { usdc: ref("usdc"), weth: ref("weth") },
      stakingYield: { wstETH: rateEvent("wstETH"), cbETH: rateEvent("cbETH") },
      feeds: { ethUsd: { at: ref("ethUsdFeed"), description: "ETH / USD", decimals: 8, source: "devnet PriceFeed" } },
      accounts: {
        multisig: ref("multisig"),
        timelock: c.timelock ? ref("timelock") : null,
        treasury: ref("treasury"),
        insuranceFund: ref("insuranceFund"),
        operator: d.signers.operator,
        hedgeWatchOnly: d.accounts.hedgeWatchOnly?.address ?? null,
        incentiveEscrow: ref("incentiveEscrow"),
      },
      registryAccounts: [],
      venue: { name: "hyperliquid", url: `${d.venue.url}/info`, account: d.venue.hedgeAccount, coin: d.venue.coin },
      signers: d.signers,
      sharePriceIntervalBlocks: 25,
      yieldPolicy: { strategyCostFraction: 0.1, insuranceAllocation: 0.1, protocolFee: 0, feePhase: "genesis" },
      payments: {
        network: d.payments.network,
        recipient: d.payments.recipient,
        builderCode: d.payments.builderCode,
        asset: { at: ref("usdc"), name: "USD Coin", version: "2", symbol: "USDC", decimals: 6 },
      },
      registry: { ...d.registry, signatures },
    },
  } as NetworkDocument;
}

export const networkFileOf = (deploymentFile: string) => join(dirname(deploymentFile), "network.json");

/** The operator signs its registry's membership messages offline; on the devnet we hold its keys. */
async function membershipSignatures(d: Deployment): Promise<Record<string, Record<string, Hex>>> {
  const book: Record<string, Record<string, Hex>> = {};
  for (const v of d.registry.versions) {
    for (const e of v.entries.filter((x) => x.kind === "eoa")) {
      const key = d.accounts[e.ref]?.privateKey;
      if (!key) continue;
      const signature = await privateKeyToAccount(key).signMessage({ message: membershipMessage(v.as_of) });
      book[e.address.toLowerCase()] = { ...book[e.address.toLowerCase()], [v.as_of]: signature };
    }
  }
  return book;
}

/** Writes network.json (with the registry's membership signatures) beside the deployment file. */
export async function writeDevnetServiceFiles(d: Deployment, deploymentFile: string): Promise<void> {
  writeFileSync(
    networkFileOf(deploymentFile),
    `${JSON.stringify(devnetNetworkDocument(d, await membershipSignatures(d)), null, 2)}\n`,
  );
}

/** What a service over this devnet is configured with: the same variables production uses. */
export function devnetServiceEnv(d: Deployment, deploymentFile: string): Record<string, string> {
  const key = (name: string) => d.accounts[name]?.privateKey;
  return {
    KUSD_NETWORK: "devnet",
    KUSD_NETWORK_FILE: networkFileOf(deploymentFile),
    ...(key("operator") && { KUSD_OPERATOR_PRIVATE_KEY: key("operator")! }),
    ...(key("attestationSigner") && { KUSD_ATTESTATION_PRIVATE_KEY: key("attestationSigner")! }),
    ...(key("facilitator") && { KUSD_FACILITATOR_PRIVATE_KEY: key("facilitator")!, KUSD_FACILITATOR_POLLING_MS: "25" }),
    // security.txt: a reserved (.invalid) address, valid for 180 days from when the devnet was made.
    KUSD_SECURITY_CONTACT: "mailto:security@kusd-devnet.invalid",
    KUSD_SECURITY_EXPIRES: new Date(Date.parse(d.createdAt) + 180 * 86_400_000).toISOString(),
  };
}
