/**
 * The I/O edge of GET /api/risk-status: the configuration getters of every deployed contract
 * (catalogued from its ABI), the admin and minter roles (indexed holders), the venue and the
 * statement, and the source-named getters probed for reverts, all at one block.
 */

import type { NotDeployedRead } from "@kusd/core";
import {
  buildRiskStatus,
  configurationGetters,
  DEFAULT_ADMIN_ROLE,
  type Gap,
  getterTrigger,
  MINTER_ROLE,
  type OffChainTrigger,
  offChainTriggers,
  type RiskStatus,
  roleTrigger,
  type Trigger,
} from "@kusd/core";
import { type Abi, type Address, encodeFunctionData, getAddress, type Hex, parseAbiItem } from "viem";
import {
  kerneVaultAbi,
  kerneVaultV1Abi,
  kusdAbi,
  kusdpsmAbi,
  kusdpsmv1Abi,
  kusdpsmv3Abi,
  stakedKUSDAbi,
  stakedKUSDV1Abi,
  timelockAbi,
} from "../../abis/index.js";
import { hasCodeAt, PinnedReader, tolerantReads } from "../../packages/verify/src/index.js";
import {
  type BlockHeader,
  blockTimestamp,
  type ReportBlock,
  type ReportContext,
  reportBlockHeader,
} from "../context.js";
import { roleHoldersAt } from "../io/indexed-reads.js";
import { readVenueNow } from "../io/venue-now.js";
import sourceGetters from "./source-getters.json" with { type: "json" };

type Target = { key: string; address: Address; abi: Abi };

/** The deployed contracts and their ABIs (abis/ is checked against the deployed ABIs by test:fidelity). */
function targets(ctx: ReportContext): Target[] {
  const n = ctx.network;
  const list: (Target | null)[] = [
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
  return list.filter((t): t is Target => t !== null);
}

async function probeGaps(
  ctx: ReportContext,
  reader: PinnedReader,
  live: Target[],
  failedReads: string[],
): Promise<Gap[]> {
  const n = ctx.network;
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
  ctx: ReportContext,
  live: Target[],
  blockNumber: bigint,
  read: ReturnType<typeof tolerantReads>["read"],
): Promise<Trigger[]> {
  const n = ctx.network;
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
  const holders = (contract: Address, role: Hex) =>
    roleHoldersAt(ctx.db, contract.toLowerCase() as Address, role, blockNumber).then(
      (h) => h.map((x) => getAddress(x.account)),
      () => null,
    );
  const rpc = n.reporting.publicRpc.base;
  const hasRoleCommand = (contract: Address, role: Hex, account: string) =>
    `cast call ${contract} 'hasRole(bytes32,address)(bool)' ${role} ${account} --block ${blockNumber} --rpc-url ${rpc}`;
  const adminTargets = live.filter((t) =>
    ["kUSD", "psmMint", "psmRetiredMint", "psmRedeemReserve", "skUSD", "vaultV2"].includes(t.key),
  );
  const roleTriggers = await Promise.all([
    holders(n.kUSD.address, MINTER_ROLE).then((h) =>
      roleTrigger({
        contractKey: "kUSD",
        contract: n.kUSD.address,
        role: "MINTER_ROLE",
        holders: h,
        allowed: [n.psms.psmMint.address],
        allowedLabel: "the live mint PSM",
        why: "whoever holds kUSD MINTER_ROLE can mint without depositing USDC",
        verifyVia: hasRoleCommand(n.kUSD.address, MINTER_ROLE, n.psms.psmMint.address),
      }),
    ),
    ...adminTargets.map((t) =>
      holders(t.address, DEFAULT_ADMIN_ROLE).then((h) =>
        roleTrigger({
          contractKey: t.key,
          contract: t.address,
          role: "DEFAULT_ADMIN_ROLE",
          holders: h,
          allowed: governance,
          allowedLabel: "the timelock or the multisig",
          why: "the admin grants every role, MINTER_ROLE included, and flips the switches above",
          verifyVia: hasRoleCommand(t.address, DEFAULT_ADMIN_ROLE, governance[0] ?? n.reporting.multisig),
        }),
      ),
    ),
  ]);
  return [...getterTriggers, ...roleTriggers];
}

async function readOffChain(
  ctx: ReportContext,
  at: ReportBlock,
  statementSignedAt: () => Promise<number | null>,
): Promise<OffChainTrigger[]> {
  // Off-chain triggers are about now: at a past block they are not judged (offChainTriggers knows atHead).
  const pastBlock = { state: null, reason: "past block: the venue publishes current equity only" };
  const [venue, signedAt] = await Promise.all([
    at.atHead ? readVenueNow(ctx) : pastBlock,
    statementSignedAt().catch(() => null),
  ]);
  return offChainTriggers({
    atHead: at.atHead,
    venueAccount: ctx.network.reporting.venue.account,
    venue: venue.state ? { equityUsd: venue.state.equityUsd, timeMs: venue.state.time } : null,
    venueReason: venue.reason,
    statementSignedAt: signedAt,
    now: Math.floor(Date.now() / 1000),
  });
}

export type RiskChainPart = {
  onChain: Trigger[];
  gaps: Gap[];
  failedReads: string[];
  notDeployed: NotDeployedRead[];
  timestamp: number;
};

/**
 * The contracts that exist at the block. One with no code yet (deployed later) has no switches and
 * no gaps there: it is listed as not deployed, not read. Unknown code (the read failed) is read.
 */
async function deployedTargets(
  ctx: ReportContext,
  blockNumber: bigint,
): Promise<{ live: Target[]; notDeployed: NotDeployedRead[] }> {
  const all = targets(ctx);
  const code = await Promise.all(all.map((t) => hasCodeAt(ctx.base, t.address, blockNumber)));
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

/**
 * The on-chain part of the risk status at `at` (kept per block and hash: it cannot change there).
 * `header`: the block's header as the caller read it.
 */
export function riskChainPart(ctx: ReportContext, at: ReportBlock, header: BlockHeader | null): Promise<RiskChainPart> {
  const chain = async (): Promise<RiskChainPart> => {
    const reader = new PinnedReader(ctx.base, at.blockNumber, ctx.network.reporting.publicRpc.base);
    const { read, failedReads, notDeployed } = tolerantReads(reader);
    const present = await deployedTargets(ctx, at.blockNumber);
    const [timestamp, onChain, gaps] = await Promise.all([
      blockTimestamp(ctx, at.blockNumber, header),
      onChainTriggers(ctx, present.live, at.blockNumber, read),
      probeGaps(ctx, reader, present.live, failedReads),
    ]);
    return {
      onChain,
      gaps,
      failedReads,
      notDeployed: [...present.notDeployed, ...notDeployed],
      timestamp,
    };
  };
  return header ? ctx.caches.riskChain(`${at.blockNumber}:${header.hash}`, chain) : chain();
}

export async function loadRiskStatus(
  ctx: ReportContext,
  at: ReportBlock,
  statementSignedAt: () => Promise<number | null>,
): Promise<RiskStatus> {
  const header = await reportBlockHeader(ctx, at.blockNumber);
  // The chain part cannot change at a block (keyed by its hash); the off-chain part is read every time.
  const [c, offChain] = await Promise.all([riskChainPart(ctx, at, header), readOffChain(ctx, at, statementSignedAt)]);
  return buildRiskStatus({
    blockNumber: at.blockNumber,
    timestamp: c.timestamp,
    onChain: c.onChain,
    offChain,
    gaps: c.gaps,
    gapSource: `${sourceGetters.source} (commit ${sourceGetters.commit}): every getter those files name, called at the block`,
    failedReads: c.failedReads,
    notDeployed: c.notDeployed,
  });
}
