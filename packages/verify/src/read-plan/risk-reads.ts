/**
 * The chain half of /api/risk-status, the same for the service and a reader: the configuration
 * getters of every deployed contract (catalogued from its ABI) read at the block, the getters the
 * operator's source names probed for reverts, and who holds kUSD's MINTER_ROLE and each admin
 * role. Role holders come from RoleGranted / RoleRevoked (the service's indexed rows, a reader's
 * logs: role-holders-from-logs.ts), handed in as `holdersOf`.
 */
import {
  configurationGetters,
  DEFAULT_ADMIN_ROLE,
  type Gap,
  getterTrigger,
  MINTER_ROLE,
  type NetworkConfig,
  type NotDeployedRead,
  roleTrigger,
  type Trigger,
} from "@kusd/core";
import { type Abi, type Address, encodeFunctionData, type Hex, parseAbiItem } from "viem";
import { kerneVaultAbi } from "../../../../abis/KerneVault.js";
import { kerneVaultV1Abi } from "../../../../abis/KerneVaultV1.js";
import { kusdAbi } from "../../../../abis/KUSD.js";
import { kusdpsmAbi } from "../../../../abis/KUSDPSM.js";
import { kusdpsmv1Abi } from "../../../../abis/KUSDPSMV1.js";
import { kusdpsmv3Abi } from "../../../../abis/KUSDPSMV3.js";
import { stakedKUSDAbi } from "../../../../abis/StakedKUSD.js";
import { stakedKUSDV1Abi } from "../../../../abis/StakedKUSDV1.js";
import { timelockAbi } from "../../../../abis/Timelock.js";
import { type PinnedReader, tolerantReads } from "./pinned-reader.js";
import sourceGetters from "./source-getters.json" with { type: "json" };

export type RiskTarget = { key: string; address: Address; abi: Abi };

/** Who holds `role` on `contract` at the block (checksummed), or null when that cannot be told. */
export type HoldersOf = (contract: Address, role: Hex) => Promise<string[] | null>;

export const RISK_GAP_SOURCE = `${sourceGetters.source} (commit ${sourceGetters.commit}): every getter those files name, called at the block`;

/** The deployed contracts and their ABIs (abis/ is checked against the deployed ABIs by test:fidelity). */
export function riskTargets(n: NetworkConfig): RiskTarget[] {
  const list: (RiskTarget | null)[] = [
    { key: "kUSD", address: n.kUSD.address, abi: kusdAbi },
    { key: "psmMint", address: n.psms.psmMint.address, abi: kusdpsmAbi },
    { key: "psmRetiredMint", address: n.psms.psmRetiredMint.address, abi: kusdpsmv3Abi },
    { key: "psmRedeemReserve", address: n.psms.psmRedeemReserve.address, abi: kusdpsmv1Abi },
    { key: "skUSD", address: n.stakingVaults.skUSD.address, abi: stakedKUSDAbi },
    { key: "skUSDDeprecated", address: n.stakingVaults.skUSDDeprecated.address, abi: stakedKUSDV1Abi },
    { key: "vaultV2", address: n.depositVaults.vaultV2.address, abi: kerneVaultAbi },
    { key: "vaultV1", address: n.depositVaults.vaultV1.address, abi: kerneVaultV1Abi },
    n.reporting.timelock ? { key: "timelock", address: n.reporting.timelock, abi: timelockAbi } : null,
  ];
  return list.filter((t): t is RiskTarget => t !== null);
}

/** The contracts whose admin role is a trigger. */
const ADMINISTERED = ["kUSD", "psmMint", "psmRetiredMint", "psmRedeemReserve", "skUSD", "vaultV2"];

/** The roles whose holders the report shows: kUSD's MINTER_ROLE, and the admin role of each administered contract. */
export function riskRoles(n: NetworkConfig, live: readonly RiskTarget[]): { contract: Address; role: Hex }[] {
  return [
    { contract: n.kUSD.address, role: MINTER_ROLE },
    ...live.filter((t) => ADMINISTERED.includes(t.key)).map((t) => ({ contract: t.address, role: DEFAULT_ADMIN_ROLE })),
  ];
}

/**
 * The contracts that exist at the block. One with no code yet (deployed later) has no switches and
 * no gaps there: it is listed as not deployed, not read. Unknown code (the read failed) is read.
 */
export async function deployedRiskTargets(
  reader: PinnedReader,
  n: NetworkConfig,
): Promise<{ live: RiskTarget[]; notDeployed: NotDeployedRead[] }> {
  const all = riskTargets(n);
  const code = await Promise.all(all.map((t) => reader.hasCode(t.address)));
  return {
    live: all.filter((_, i) => code[i] !== false),
    notDeployed: all
      .filter((_, i) => code[i] === false)
      .map((t) => ({
        to: t.address,
        read: `${t.key}: its configuration getters and the source-named getters`,
        reason: "not_deployed" as const,
      })),
  };
}

async function probeGaps(
  n: NetworkConfig,
  reader: PinnedReader,
  live: RiskTarget[],
  failedReads: string[],
): Promise<Gap[]> {
  const blockNumber = reader.blockNumber;
  const addressOf: Record<string, Address> = Object.fromEntries(live.map((t) => [t.key, t.address]));
  const rpc = n.reporting.publicRpc.base;
  const probes = Object.values(sourceGetters.contracts).flatMap((c) =>
    c.deployedAs.flatMap((key) =>
      addressOf[key] ? c.getters.map((getter) => ({ key, address: addressOf[key]!, getter, file: c.file })) : [],
    ),
  );
  // Each getter probed in the block's batch: whether it answers, answers nothing, or reverts.
  const results = await Promise.all(
    probes.map(async (p) => {
      const args = p.getter.endsWith("(address)") ? [n.usdc.address] : [];
      const abi: Abi = [parseAbiItem(`function ${p.getter} view`)];
      const data = encodeFunctionData({ abi, functionName: p.getter.split("(")[0]!, args });
      const outcome = await reader.probe(p.address, p.getter, args);
      if (outcome === "returned") return null;
      if (typeof outcome === "object") {
        failedReads.push(`${p.getter} on ${p.address} (gap probe): ${outcome.failed}`);
        return null;
      }
      return { p, data, result: outcome };
    }),
  );
  return results
    .filter((r): r is NonNullable<typeof r> => r !== null)
    .map(({ p, data, result }) => ({
      id: `${p.key}.${p.getter.replace(/\(.*$/, "")}`,
      contractKey: p.key,
      contract: p.address,
      getter: p.getter,
      selector: data.slice(0, 10),
      namedIn: `${sourceGetters.source}/${p.file}`,
      result,
      verifyVia: `cast call ${p.address} '${p.getter}'${p.getter.endsWith("(address)") ? ` ${n.usdc.address}` : ""} --block ${blockNumber} --rpc-url ${rpc}  # ${result}`,
    }));
}

async function onChainTriggers(
  n: NetworkConfig,
  live: RiskTarget[],
  blockNumber: bigint,
  read: ReturnType<typeof tolerantReads>["read"],
  holdersOf: HoldersOf,
): Promise<Trigger[]> {
  const getterTriggers = await Promise.all(
    live.flatMap((t) =>
      configurationGetters(t.abi).map(async (g) => {
        const r = await read<boolean | bigint>({
          to: t.address,
          signature: g.signature,
          args: g.arg === "stable" ? [n.usdc.address] : [],
        });
        return getterTrigger({
          contractKey: t.key,
          contract: t.address,
          getter: g,
          value: r?.value ?? null,
          verifyVia: r?.command(`triggers.onChain ${t.key}.${g.name}`) ?? null,
        });
      }),
    ),
  );
  const governance = [n.reporting.timelock, n.reporting.multisig].filter((a): a is Address => a !== null);
  const rpc = n.reporting.publicRpc.base;
  const hasRoleCommand = (contract: Address, role: Hex, account: string) =>
    `cast call ${contract} 'hasRole(bytes32,address)(bool)' ${role} ${account} --block ${blockNumber} --rpc-url ${rpc}`;
  const keyOf = new Map(live.map((t) => [t.address.toLowerCase(), t.key]));
  const roleTriggers = await Promise.all(
    riskRoles(n, live).map(async ({ contract, role }) => {
      const holders = await holdersOf(contract, role);
      if (role === MINTER_ROLE)
        return roleTrigger({
          contractKey: "kUSD",
          contract,
          role: "MINTER_ROLE",
          holders,
          allowed: [n.psms.psmMint.address],
          allowedLabel: "the live mint PSM",
          why: "whoever holds kUSD MINTER_ROLE can mint without depositing USDC",
          verifyVia: hasRoleCommand(contract, MINTER_ROLE, n.psms.psmMint.address),
        });
      return roleTrigger({
        contractKey: keyOf.get(contract.toLowerCase())!,
        contract,
        role: "DEFAULT_ADMIN_ROLE",
        holders,
        allowed: governance,
        allowedLabel: "the timelock or the multisig",
        why: "the admin grants every role, MINTER_ROLE included, and flips the switches above",
        verifyVia: hasRoleCommand(contract, DEFAULT_ADMIN_ROLE, governance[0] ?? n.reporting.multisig),
      });
    }),
  );
  return [...getterTriggers, ...roleTriggers];
}

export type RiskChainReads = { onChain: Trigger[]; gaps: Gap[]; failedReads: string[]; notDeployed: NotDeployedRead[] };

/** Every chain read of the report at the reader's block, the role holders from `holdersOf`. */
export async function readRiskChain(
  reader: PinnedReader,
  n: NetworkConfig,
  holdersOf: HoldersOf,
): Promise<RiskChainReads> {
  const { read, failedReads, notDeployed } = tolerantReads(reader);
  const present = await deployedRiskTargets(reader, n);
  const [onChain, gaps] = await Promise.all([
    onChainTriggers(n, present.live, reader.blockNumber, read, holdersOf),
    probeGaps(n, reader, present.live, failedReads),
  ]);
  return { onChain, gaps, failedReads, notDeployed: [...present.notDeployed, ...notDeployed] };
}
