/** The I/O edge of GET /api/psm-status: each PSM's mint gates read at one block, then the pure builder. */

import {
  buildPsmStatus,
  MINTER_ROLE,
  PSM_KEYS,
  PSM_LABELS,
  PSM_VERSIONS,
  type PsmStatus,
  psmStatusEntry,
} from "@kusd/core";
import type { Address } from "viem";
import { PinnedReader, type ReadSpec, tolerantReads } from "../../packages/verify/src/index.js";
import {
  type BlockHeader,
  blockTimestamp,
  type ReportBlock,
  type ReportContext,
  reportBlockHeader,
} from "../context.js";

// A block's gates cannot change (keyed by its hash, so a reorg is read afresh); a document with a
// failed read is never kept, so the next request retries it (ctx.caches.psmStatus).

/** The gates at `at`; `known`: the block's header when the caller read it already. */
export async function loadPsmStatus(
  ctx: ReportContext,
  at: ReportBlock,
  known?: BlockHeader | null,
): Promise<PsmStatus> {
  const header = known === undefined ? await reportBlockHeader(ctx, at.blockNumber) : known;
  return header
    ? ctx.caches.psmStatus(`${at.blockNumber}:${header.hash}`, () => readPsmStatus(ctx, at, header))
    : readPsmStatus(ctx, at, null);
}

async function readPsmStatus(ctx: ReportContext, at: ReportBlock, header: BlockHeader | null): Promise<PsmStatus> {
  const n = ctx.network;
  const r = new PinnedReader(ctx.base, at.blockNumber, n.reporting.publicRpc.base);
  const { read, failedReads, notDeployed } = tolerantReads(r);
  const usdc = n.usdc.address;
  const [timestamp, ...entries] = await Promise.all([
    blockTimestamp(ctx, at.blockNumber, header),
    ...PSM_KEYS.map(async (key) => {
      const psm: Address = n.psms[key].address;
      const specs: Record<string, [ReadSpec, number?]> = {
        mintingEnabled: [{ to: psm, signature: "mintingEnabled()(bool)" }],
        paused: [{ to: psm, signature: "paused()(bool)" }],
        supportedStables: [{ to: psm, signature: "supportedStables(address)(bool)", args: [usdc] }],
        stableCaps: [{ to: psm, signature: "stableCaps(address)(uint256)", args: [usdc] }, 6],
        currentExposure: [{ to: psm, signature: "currentExposure(address)(uint256)", args: [usdc] }, 6],
        usdcBalance: [{ to: usdc, signature: "balanceOf(address)(uint256)", args: [psm] }, 6],
        psmHasMinterRole: [
          { to: n.kUSD.address, signature: "hasRole(bytes32,address)(bool)", args: [MINTER_ROLE, psm] },
        ],
      };
      const names = Object.keys(specs);
      const reads = await Promise.all(names.map((name) => read<bigint | boolean>(specs[name]![0], specs[name]![1])));
      const value = <T>(name: string) => (reads[names.indexOf(name)]?.value ?? null) as T | null;
      const commands = Object.fromEntries(
        names.flatMap((name, i) => (reads[i] ? [[name, reads[i]!.command(`gates.${name}`)]] : [])),
      );
      return psmStatusEntry({
        key,
        label: PSM_LABELS[key].label,
        version: PSM_VERSIONS[key],
        address: psm,
        gates: {
          mintingEnabled: value<boolean>("mintingEnabled"),
          paused: value<boolean>("paused"),
          supportedStables: value<boolean>("supportedStables"),
          stableCaps: value<bigint>("stableCaps"),
          currentExposure: value<bigint>("currentExposure"),
          usdcBalance: value<bigint>("usdcBalance"),
          psmHasMinterRole: value<boolean>("psmHasMinterRole"),
        },
        commands,
      });
    }),
  ]);
  return buildPsmStatus({ blockNumber: at.blockNumber, timestamp }, entries, failedReads, notDeployed);
}
