/**
 * Live subscriptions over the indexed events: PSM swaps (and redemptions alone, the older
 * field), registry transfers and role changes. Each is named as the query connection it follows
 * and says DETECTED or RETRACTED (live/stream.ts); `violations` is in violations.ts.
 */
import { builder } from "../builder.js";
import { RoleEventRef } from "../entities/roles.js";
import { SwapDirection, SwapRef } from "../entities/swaps.js";
import { TransferRef } from "../entities/transfers.js";
import { address } from "../inputs.js";
import { PsmKeyEnum } from "../nodes.js";
import { FROM_BLOCK, liveEventRef } from "./events.js";
import {
  type RoleEventRow,
  roleEventSource,
  type SwapRow,
  swapSource,
  type TransferRow,
  transferSource,
} from "./sources.js";
import { liveStream } from "./stream.js";

const SwapEvent = liveEventRef<SwapRow>(
  "PsmSwapEvent",
  "swap",
  SwapRef,
  "A PSM swap the indexer recorded (DETECTED) or a reorg removed (RETRACTED).",
);
const TransferEvent = liveEventRef<TransferRow>(
  "RegistryTransferEvent",
  "transfer",
  TransferRef,
  "A registry transfer the indexer recorded (DETECTED) or a reorg removed (RETRACTED).",
);
const RoleChangeEvent = liveEventRef<RoleEventRow>(
  "RoleChangeEvent",
  "roleEvent",
  RoleEventRef,
  "A role grant or revocation the indexer recorded (DETECTED) or a reorg removed (RETRACTED).",
);

builder.subscriptionField("psmSwaps", (t) =>
  t.field({
    type: SwapEvent,
    description: "PSM swaps (mints and redemptions) as they are indexed, and RETRACTED when a reorg removes one.",
    args: {
      direction: t.arg({ type: SwapDirection }),
      psm: t.arg({ type: [PsmKeyEnum] }),
      minKusd: t.arg({ type: "BigInt", description: "kUSD amount at least (18 decimals)" }),
      user: t.arg.string({ description: "Swapper / redeemer address" }),
      fromBlock: t.arg({ type: "BigInt", description: FROM_BLOCK }),
    },
    subscribe: (_root, args, { reports, signal }) => {
      const source = swapSource(reports.db, {
        direction: args.direction ?? undefined,
        psm: args.psm ?? undefined,
        minKusd: args.minKusd ?? undefined,
        user: address(args.user, "user"),
      });
      return liveStream(source, { fromBlock: args.fromBlock ?? undefined, signal });
    },
    resolve: (e) => e,
  }),
);

builder.subscriptionField("redemptions", (t) =>
  t.field({
    type: SwapEvent,
    description:
      "PSM redemptions as they are indexed, and RETRACTED when a reorg removes one: `psmSwaps(direction: redeem)`.",
    args: {
      minKusd: t.arg({ type: "BigInt", description: "kUSD amount at least (18 decimals)" }),
      psm: t.arg({ type: [PsmKeyEnum] }),
      fromBlock: t.arg({ type: "BigInt", description: FROM_BLOCK }),
    },
    subscribe: (_root, args, { reports, signal }) => {
      const source = swapSource(reports.db, {
        direction: "redeem",
        psm: args.psm ?? undefined,
        minKusd: args.minKusd ?? undefined,
      });
      return liveStream(source, { fromBlock: args.fromBlock ?? undefined, signal });
    },
    resolve: (e) => e,
  }),
);

builder.subscriptionField("registryTransfers", (t) =>
  t.field({
    type: TransferEvent,
    description:
      "Transfers with a registry account on either side as they are indexed, and RETRACTED when a reorg removes one.",
    args: {
      tokenSymbol: t.arg.string({ description: "USDC | kUSD | WETH | skUSD | skUSD-v1" }),
      account: t.arg.string({ description: "Either side" }),
      classification: t.arg.string(),
      minAmount: t.arg({
        type: "BigInt",
        description: "Amount at least, in the token's raw units (USDC 6 decimals, kUSD and WETH 18, skUSD shares 24)",
      }),
      fromBlock: t.arg({ type: "BigInt", description: FROM_BLOCK }),
    },
    subscribe: (_root, args, { reports, signal }) => {
      const source = transferSource(reports.db, {
        tokenSymbol: args.tokenSymbol ?? undefined,
        account: address(args.account, "account"),
        classification: args.classification ?? undefined,
        minAmount: args.minAmount ?? undefined,
      });
      return liveStream(source, { fromBlock: args.fromBlock ?? undefined, signal });
    },
    resolve: (e) => e,
  }),
);

builder.subscriptionField("roleEvents", (t) =>
  t.field({
    type: RoleChangeEvent,
    description:
      "Role grants and revocations on kUSD, the PSMs and the vaults as they are indexed, and RETRACTED when a reorg removes one.",
    args: {
      contractKey: t.arg.string({ description: "kUSD, psmMint, psmRetiredMint, psmRedeemReserve, skUSD, vaultV1, …" }),
      roleName: t.arg.string({ description: "MINTER_ROLE, DEFAULT_ADMIN_ROLE, …" }),
      account: t.arg.string(),
      granted: t.arg.boolean(),
      fromBlock: t.arg({ type: "BigInt", description: FROM_BLOCK }),
    },
    subscribe: (_root, args, { reports, signal }) => {
      const source = roleEventSource(reports.db, {
        contractKey: args.contractKey ?? undefined,
        roleName: args.roleName ?? undefined,
        account: address(args.account, "account"),
        granted: args.granted ?? undefined,
      });
      return liveStream(source, { fromBlock: args.fromBlock ?? undefined, signal });
    },
    resolve: (e) => e,
  }),
);
