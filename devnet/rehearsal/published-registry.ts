/**
 * What the operator would publish at its `/api/por/accounts` on the rehearsal chain: a registry
 * version listing the protocol's contracts (each proved by its on-chain predicate, observed at
 * a block of the rehearsal) and a hedge sub-account that signs its membership message. The real
 * operator's key is not ours, so its own EOA entry is left out. A second version carries a
 * forged signature: the service must report it and not use it.
 */

import type { NetworkConfig, RegistryEntryConfig, RegistryVersionConfig } from "@kusd/core";
import {
  buildRegistryDocument,
  type ContractProof,
  membershipMessage,
  type Predicate,
  predicateHolds,
  predicateOf,
  REGISTRY_OPERATOR_NAME,
} from "@kusd/core";
import { type Address, createPublicClient, getAddress, type Hex, http } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { predicateSpecsFor } from "../../api/registry/registry-service.js";
import { HEDGE_SUBACCOUNT_KEY, REHEARSAL_ACTORS } from "./story.js";

export async function publishedRegistry(
  net: NetworkConfig,
  rpcUrl: string,
  guardian: Address,
  observedAt: number,
  issuedAt: number,
) {
  const client = createPublicClient({ transport: http(rpcUrl) });
  const r = net.reporting;
  const hedge = privateKeyToAccount(HEDGE_SUBACCOUNT_KEY);
  const contract = (
    address: Address,
    role: string,
    label: string,
    holds: boolean,
    backs: boolean,
  ): RegistryEntryConfig => ({
    address: getAddress(address),
    kind: "contract",
    chain: "base",
    role,
    venue: null,
    label,
    holds_protocol_funds: holds,
    backs_kusd: backs,
    ref: role,
  });
  const entries: RegistryEntryConfig[] = [
    {
      address: hedge.address,
      kind: "eoa",
      chain: "base",
      role: "venue_margin",
      venue: "hyperliquid",
      label: "Hedge sub-account",
      holds_protocol_funds: true,
      backs_kusd: false,
      ref: "hedgeSubaccount",
    },
    contract(r.multisig, "admin_multisig", "Admin Safe (2-of-3)", true, false),
    contract(r.timelock!, "admin_timelock", "TimelockController, 48 h", false, false),
    contract(guardian, "pause_guardian", "Pause guardian", false, false),
    contract(r.treasury, "treasury", "Protocol treasury v3 (PSM fee sink)", true, false),
    contract(r.insuranceFund, "insurance_fund", "Insurance fund", true, true),
    contract(net.psms.psmMint.address, "psm_mint", "kUSD PSM (live mint)", true, true),
    contract(
      net.psms.psmRetiredMint.address,
      "psm_prev_mint_retired",
      "kUSD PSM 2026-06-16 (retired mint)",
      true,
      true,
    ),
    contract(net.psms.psmRedeemReserve.address, "psm_redeem_reserve", "kUSD PSM v1 (redeem reserve)", true, true),
    contract(net.depositVaults.vaultV1.address, "vault_v1_retired", "Kerne vault v1", true, true),
    contract(net.depositVaults.vaultV2.address, "vault_v2_attested", "Kerne vault v2", true, false),
    contract(net.stakingVaults.skUSD.address, "staked_vault", "skUSD staking vault", false, false),
    contract(
      net.stakingVaults.skUSDDeprecated.address,
      "staked_vault_superseded",
      "skUSD v1 (superseded)",
      false,
      false,
    ),
    contract(net.kUSD.address, "liability_token", "kUSD", false, false),
  ];
  const asOf = new Date(issuedAt * 1000).toISOString().slice(0, 10);
  const version: RegistryVersionConfig = {
    registry_version: 1,
    issued_at: issuedAt,
    as_of: asOf,
    entries,
    disclosed_venue_deposits: [],
  };
  const observe = async (p: Predicate) => {
    const value = (await client.call({ to: p.to, data: p.data, blockNumber: BigInt(observedAt) })).data ?? "0x";
    return {
      observed_at_block: observedAt,
      observed_value: value as Hex,
      holds: predicateHolds(p, value as Hex),
      rpc_used: r.publicRpc.base,
    };
  };
  const proofs = new Map<string, ContractProof>();
  for (const e of entries.filter((x) => x.kind === "contract")) {
    const specs = predicateSpecsFor(e, r.operator, { multisig: r.multisig, timelock: r.timelock })!;
    const predicate = predicateOf(specs.primary, 8453, r.publicRpc.base);
    const secondary = specs.secondary ? predicateOf(specs.secondary, 8453, r.publicRpc.base) : null;
    proofs.set(e.address.toLowerCase(), {
      predicate,
      secondary,
      observation: await observe(predicate),
      secondaryObservation: secondary ? await observe(secondary) : null,
      why: specs.why,
    });
  }
  const signatures = new Map([
    [hedge.address.toLowerCase(), await hedge.signMessage({ message: membershipMessage(asOf) })],
  ]);
  const inputs = {
    operatorName: REGISTRY_OPERATOR_NAME,
    operator: r.operator,
    signatures,
    proofs,
    publicStateRead: () => null,
    hedgeVenues: {},
  };
  const v1 = buildRegistryDocument({ ...inputs, version });
  // Version 2 lists the outsider as a hedge account, "signed" with the sub-account's key: forged.
  const outsider = REHEARSAL_ACTORS.outsider;
  const v2Version: RegistryVersionConfig = {
    ...version,
    registry_version: 2,
    entries: [...entries, { ...entries[0]!, address: outsider, label: "Forged entry" }],
  };
  const forged = new Map([...signatures, [outsider.toLowerCase(), signatures.get(hedge.address.toLowerCase())!]]);
  const v2 = buildRegistryDocument({ ...inputs, version: v2Version, signatures: forged });
  return { documents: [v1, v2], accepted: v1, forged: v2 };
}
