/**
 * The alert feeds for monitors (`/api/events/*`): one published shape per event kind, each with
 * its view from the indexed row. Pure; the schemas are the routes' types and the monitor's check.
 */
import { getAddress, type Hex } from "viem";
import { z } from "zod";
import { indexedHeadSchema } from "../registry/violation-view.js";
import { isoTime, toUnits } from "../reserves/units.js";
import { addressSchema, hash32Schema, isoTimeSchema, weiSchema } from "../schema-primitives.js";

const common = { id: z.string(), txHash: hash32Schema, blockNumber: z.number().int(), timestamp: isoTimeSchema };

export const MinterGrantSchema = z.strictObject({
  id: common.id,
  kind: z.literal("minter_grant"),
  contract: addressSchema,
  contractKey: z.string(),
  account: addressSchema.describe("the account granted MINTER_ROLE"),
  sender: addressSchema,
  txHash: common.txHash,
  blockNumber: common.blockNumber,
  timestamp: common.timestamp,
});

export const MinterRoleChangeSchema = z.strictObject({
  id: common.id,
  kind: z.literal("minter_role_change"),
  granted: z.boolean().describe("true: RoleGranted; false: RoleRevoked"),
  contract: addressSchema,
  contractKey: z.string(),
  account: addressSchema.describe("the account granted or stripped of MINTER_ROLE"),
  sender: addressSchema,
  txHash: common.txHash,
  blockNumber: common.blockNumber,
  timestamp: common.timestamp,
});

export const PsmPauseSchema = z.strictObject({
  id: common.id,
  kind: z.literal("psm_pause"),
  psm: addressSchema,
  psmKey: z.string(),
  account: addressSchema,
  txHash: common.txHash,
  blockNumber: common.blockNumber,
  timestamp: common.timestamp,
});

export const RedemptionEventSchema = z.strictObject({
  id: common.id,
  kind: z.literal("redemption"),
  psm: addressSchema,
  psmKey: z.string(),
  redeemer: addressSchema,
  kusdRedeemed: z.number().describe("kUSD redeemed, in whole kUSD (a float: kusdRedeemedRaw is exact)"),
  kusdRedeemedRaw: weiSchema.describe("kUSD redeemed, 18 decimals"),
  usdcPaidOut: z.number().describe("USDC paid out, in whole USDC (a float: usdcPaidOutRaw is exact)"),
  usdcPaidOutRaw: weiSchema.describe("USDC paid out, 6 decimals"),
  feeBps: z.number().int(),
  txHash: common.txHash,
  blockNumber: common.blockNumber,
  timestamp: common.timestamp,
});

const feed = <T extends z.ZodType>(event: T) =>
  z.strictObject({ indexedHead: indexedHeadSchema, events: z.array(event) });
export const MinterGrantFeedSchema = feed(MinterGrantSchema);
export const PsmPauseFeedSchema = feed(PsmPauseSchema);
export const MinterRoleChangeFeedSchema = feed(MinterRoleChangeSchema);
export const RedemptionFeedSchema = feed(RedemptionEventSchema);

type Row = { id: string; txHash: Hex; blockNumber: bigint; timestamp: bigint };
const at = (e: Row) => ({
  txHash: e.txHash,
  blockNumber: Number(e.blockNumber),
  timestamp: isoTime(Number(e.timestamp)),
});

export const minterGrantView = (
  e: Row & { contract: Hex; contractKey: string; account: Hex; sender: Hex },
): z.infer<typeof MinterGrantSchema> => ({
  id: e.id,
  kind: "minter_grant",
  contract: getAddress(e.contract),
  contractKey: e.contractKey,
  account: getAddress(e.account),
  sender: getAddress(e.sender),
  ...at(e),
});

export const minterRoleChangeView = (
  e: Row & { contract: Hex; contractKey: string; account: Hex; sender: Hex; granted: boolean },
): z.infer<typeof MinterRoleChangeSchema> => ({
  id: e.id,
  kind: "minter_role_change",
  granted: e.granted,
  contract: getAddress(e.contract),
  contractKey: e.contractKey,
  account: getAddress(e.account),
  sender: getAddress(e.sender),
  ...at(e),
});

export const psmPauseView = (e: Row & { psm: Hex; psmKey: string; account: Hex }): z.infer<typeof PsmPauseSchema> => ({
  id: e.id,
  kind: "psm_pause",
  psm: getAddress(e.psm),
  psmKey: e.psmKey,
  account: getAddress(e.account),
  ...at(e),
});

export const redemptionView = (
  e: Row & { psm: Hex; psmKey: string; user: Hex; kusdAmount: bigint; usdcAmount: bigint; feeBps: number },
): z.infer<typeof RedemptionEventSchema> => ({
  id: e.id,
  kind: "redemption",
  psm: getAddress(e.psm),
  psmKey: e.psmKey,
  redeemer: getAddress(e.user),
  kusdRedeemed: toUnits(e.kusdAmount, 18),
  kusdRedeemedRaw: e.kusdAmount.toString(),
  usdcPaidOut: toUnits(e.usdcAmount, 6),
  usdcPaidOutRaw: e.usdcAmount.toString(),
  feeBps: e.feeBps,
  ...at(e),
});

/** `/api/events/head`: the indexed head, answered once it is past the one the caller knows. */
export const IndexedHeadFeedSchema = z.strictObject({ indexedHead: indexedHeadSchema });
