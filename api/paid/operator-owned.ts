/**
 * The addresses POST /instant-read refuses (spec 4 rule 3): every account of every published
 * registry version and every protocol contract and operator account of the configuration,
 * including the operator's contracts and tokens the reports do not index. The lending market is
 * not among them: the operator deploys it but does not govern it.
 */
import type { NetworkConfig } from "@kusd/core";
import { everListed } from "@kusd/core";

export function operatorOwnedAddresses(n: NetworkConfig): Set<string> {
  const r = n.reporting;
  const all = [
    ...everListed(n.registry.versions).map((e) => e.address),
    ...n.registryAccounts,
    n.kUSD.address,
    ...n.otherOperatorContracts,
    ...(r.timelock ? [r.timelock] : []),
    ...Object.values(n.psms).map((d) => d.address),
    ...Object.values(n.stakingVaults).map((d) => d.address),
    ...Object.values(n.depositVaults).map((d) => d.address),
    r.multisig,
    r.treasury,
    r.insuranceFund,
    r.operator,
    ...(r.hedgeWatchOnly ? [r.hedgeWatchOnly] : []),
    ...(r.incentiveEscrow ? [r.incentiveEscrow] : []),
    ...(r.signers.attestation ? [r.signers.attestation] : []),
    ...(n.payments.recipient ? [n.payments.recipient] : []),
  ];
  return new Set(all.map((a) => a.toLowerCase()));
}
