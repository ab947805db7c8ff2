/**
 * `psmParameters(block:)`: each PSM's announced parameters at a block, folded from its indexed
 * events (packages/core/src/psm/parameters-at.ts), not read from the chain. A PSM is listed from its first
 * indexed event (the constructor's RoleGranted), so a block before its deployment omits it.
 */

import type { FeeTier, PsmParameters, StableParameters } from "@kusd/core";
import { and, inArray, lte } from "drizzle-orm";
import { getAddress } from "viem";
import * as schema from "../../ponder.schema.js";
import { reportHead } from "../context.js";
import { ApiError } from "../http/errors.js";
import { psmParametersAtBlock } from "../psm/parameters-reads.js";
import { BlockHeight } from "./block-height.js";
import { builder } from "./builder.js";
import { PsmRef } from "./nodes.js";
import { resolveBlock } from "./query/block.js";
import { asUserErrors } from "./user-errors.js";

type Answer = PsmParameters & { psm: { key: string; address: string }; block: bigint };

const FeeTierRef = builder.objectRef<FeeTier>("PsmFeeTier").implement({
  description: "A tier of setTieredFees: swaps of at least `threshold` pay `feeBps`.",
  fields: (t) => ({
    threshold: t.field({
      type: "BigInt",
      description: "In the stable's units (USDC, 6 decimals)",
      resolve: (x) => x.threshold,
    }),
    feeBps: t.field({ type: "BigInt", description: "Basis points", resolve: (x) => x.feeBps }),
  }),
});

const StableRef = builder.objectRef<StableParameters>("PsmStableParameters").implement({
  fields: (t) => ({
    stable: t.string({ resolve: (s) => getAddress(s.stable) }),
    feeBps: t.field({
      type: "BigInt",
      description: "swapFees[stable], basis points (set only by addStable)",
      resolve: (s) => s.feeBps,
    }),
    announcedCap: t.field({
      type: "BigInt",
      description:
        "The cap addStable announced, in the stable's units. setStableCap changes stableCaps without an event, so a later change is invisible to logs: read stableCaps(stable) at the block for the value in force.",
      resolve: (s) => s.announcedCap,
    }),
    addedAtBlock: t.field({ type: "BigInt", resolve: (s) => s.addedAtBlock }),
    tiers: t.field({
      type: [FeeTierRef],
      description:
        "The table of the last setTieredFees call that emitted a tier, highest threshold first (a call with no tiers emits nothing, so clearing the table is invisible to logs)",
      resolve: (s) => s.tiers,
    }),
    tiersSetAtBlock: t.field({ type: "BigInt", nullable: true, resolve: (s) => s.tiersSetAtBlock }),
    maxOracleDelaySeconds: t.field({
      type: "BigInt",
      description: "As set; 0 means the default",
      resolve: (s) => s.maxOracleDelaySeconds,
    }),
    effectiveMaxOracleDelaySeconds: t.field({
      type: "BigInt",
      description: "The staleness window in force (0 reads as DEFAULT_MAX_ORACLE_DELAY, 1 h)",
      resolve: (s) => s.effectiveMaxOracleDelaySeconds,
    }),
  }),
});

const ParametersRef = builder.objectRef<Answer>("PsmParameters").implement({
  description:
    "A PSM's parameters at a block, from the events it emitted: fees, announced caps, fee tiers, oracle windows, the two safety-gate switches, the treasury, paused. Setters without an event (setStableCap, setFlashFee, setOracle, setMaxDepegBps, setMinSolvencyThreshold, setMintingEnabled, setVault) are not recoverable from logs and not here.",
  fields: (t) => ({
    psm: t.field({ type: PsmRef, resolve: (a) => a.psm }),
    block: t.field({ type: "BigInt", description: "The block these are as of", resolve: (a) => a.block }),
    paused: t.exposeBoolean("paused"),
    treasury: t.string({
      nullable: true,
      description: "null until setTreasury",
      resolve: (a) => (a.treasury ? getAddress(a.treasury) : null),
    }),
    depegCheckDisabled: t.exposeBoolean("depegCheckDisabled"),
    solvencyCheckDisabled: t.exposeBoolean("solvencyCheckDisabled"),
    lastChangeBlock: t.field({ type: "BigInt", nullable: true, resolve: (a) => a.lastChangeBlock }),
    stables: t.field({ type: [StableRef], resolve: (a) => a.stables }),
  }),
});

builder.queryField("psmParameters", (t) =>
  t.field({
    type: [ParametersRef],
    description: "Each PSM deployed by `block` (default: the indexed head), with its parameters there.",
    args: { block: t.arg({ type: BlockHeight }) },
    resolve: (_root, args, { reports }) =>
      asUserErrors(async () => {
        const block = (await resolveBlock(reports, args.block)) ?? (await reportHead(reports))?.blockNumber;
        if (block === undefined) throw new ApiError("not_indexed_yet", "the indexer has not indexed a block yet");
        const re = schema.roleEvent;
        const psms = Object.entries(reports.network.psms).map(([key, d]) => ({
          key,
          address: d.address.toLowerCase() as `0x${string}`,
        }));
        // One query for which PSMs exist by the block (their constructor's RoleGranted is indexed).
        const deployed = new Set(
          (
            await reports.db
              .selectDistinct({ contract: re.contract })
              .from(re)
              .where(
                and(
                  inArray(
                    re.contract,
                    psms.map((p) => p.address),
                  ),
                  lte(re.blockNumber, block),
                ),
              )
          ).map((r) => r.contract.toLowerCase()),
        );
        return Promise.all(
          psms
            .filter((p) => deployed.has(p.address))
            .map(
              async (psm): Promise<Answer> => ({
                ...(await psmParametersAtBlock(reports.db, psm.address, block)),
                psm,
                block,
              }),
            ),
        );
      }),
  }),
);
