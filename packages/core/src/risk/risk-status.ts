/**
 * GET /api/risk-status: every safety switch and threshold the deployed contracts expose, with
 * its live value and whether it is in its safe state; the off-chain triggers (venue, statement);
 * and the gaps, the getters the operator's source names that the deployed bytecode reverts on.
 * Pure: the edge reads everything at one block and hands the results here.
 */
import type { Address } from "viem";
import { z } from "zod";
import { addressSchema, isoTimeSchema, type NotDeployedRead, notDeployedSchema } from "../schema-primitives.js";
import { type RiskPins, RiskPinsSchema } from "./risk-pins.js";
import { safeRuleFor } from "./safe-states.js";
import type { ConfigGetter } from "./trigger-catalog.js";

const TriggerSchema = z.strictObject({
  id: z.string().describe("<contractKey>.<getter>, or <contractKey>.roles.<ROLE> for a role"),
  contractKey: z.string(),
  contract: addressSchema,
  getter: z.string().describe("the read, cast style"),
  kind: z.enum(["flag", "threshold", "constant", "role"]),
  value: z
    .union([z.boolean(), z.string(), z.array(z.string())])
    .nullable()
    .describe("bool, an integer as a decimal string, or a role's holders; null when the read failed"),
  safe: z
    .boolean()
    .nullable()
    .describe("in its safe state; null when no safe state is defined or the value is unknown"),
  safeWhen: z.string().nullable(),
  why: z.string().nullable(),
  setBy: z.string().nullable().describe("the function that changes it"),
  verifyVia: z.string().nullable(),
});
export type Trigger = z.infer<typeof TriggerSchema>;

const OffChainSchema = z.strictObject({
  id: z.string(),
  value: z.union([z.boolean(), z.number(), z.string()]).nullable(),
  safe: z.boolean().nullable(),
  safeWhen: z.string(),
  detail: z.string(),
});
export type OffChainTrigger = z.infer<typeof OffChainSchema>;

const GapSchema = z.strictObject({
  id: z.string(),
  contractKey: z.string(),
  contract: addressSchema,
  getter: z.string(),
  selector: z.string(),
  namedIn: z.string().describe("the source file that names it"),
  result: z.enum(["reverts", "no data"]),
  verifyVia: z.string(),
});
export type Gap = z.infer<typeof GapSchema>;

export const RiskStatusSchema = z.strictObject({
  blockNumber: z.number().int(),
  timestamp: isoTimeSchema,
  overall: z
    .enum(["ok", "attention", "unknown"])
    .describe("attention: a trigger is out of its safe state; unknown: none is, but a read that decides one failed"),
  summary: z.string(),
  triggers: z.strictObject({ onChain: z.array(TriggerSchema), offChain: z.array(OffChainSchema) }),
  gaps: z
    .array(GapSchema)
    .describe(
      "getters the operator's source names that the deployed bytecode reverts on: source-vs-deployed drift, found by calling each",
    ),
  gapSource: z.string(),
  failedReads: z.array(z.string()),
  notDeployed: notDeployedSchema.describe(
    "contracts with no code yet at this block: they have no triggers and no gaps there",
  ),
  pins: RiskPinsSchema,
});
export type RiskStatus = z.infer<typeof RiskStatusSchema>;

/** A getter's trigger from its read: the safe state by name, when it is a switch. */
export function getterTrigger(t: {
  contractKey: string;
  contract: Address;
  getter: ConfigGetter;
  value: boolean | bigint | null;
  verifyVia: string | null;
}): Trigger {
  const rule = safeRuleFor(t.contractKey, t.getter.name);
  return {
    id: `${t.contractKey}.${t.getter.name}`,
    contractKey: t.contractKey,
    contract: t.contract,
    getter: t.getter.arg === "stable" ? `${t.getter.signature} [USDC]` : t.getter.signature,
    kind: t.getter.kind,
    value: t.value === null ? null : typeof t.value === "bigint" ? t.value.toString() : t.value,
    safe: rule && t.value !== null ? rule.safe(t.value) : null,
    safeWhen: rule?.safeWhen ?? null,
    why: rule?.why ?? null,
    setBy: t.getter.setBy,
    verifyVia: t.verifyVia,
  };
}

/** A role's trigger: its holders at the block, safe when every holder is one the rule allows. */
export function roleTrigger(t: {
  contractKey: string;
  contract: Address;
  role: string;
  holders: string[] | null;
  allowed: string[];
  allowedLabel: string;
  why: string;
  verifyVia: string | null;
}): Trigger {
  const allowed = new Set(t.allowed.map((a) => a.toLowerCase()));
  return {
    id: `${t.contractKey}.roles.${t.role}`,
    contractKey: t.contractKey,
    contract: t.contract,
    getter: `hasRole(${t.role}, …) from the indexed RoleGranted / RoleRevoked`,
    kind: "role",
    value: t.holders,
    safe: t.holders === null ? null : t.holders.length > 0 && t.holders.every((h) => allowed.has(h.toLowerCase())),
    safeWhen: `held only by ${t.allowedLabel}`,
    why: t.why,
    setBy: "grantRole / revokeRole",
    verifyVia: t.verifyVia,
  };
}

export function buildRiskStatus(i: {
  blockNumber: bigint;
  timestamp: number;
  onChain: Trigger[];
  offChain: OffChainTrigger[];
  gaps: Gap[];
  gapSource: string;
  failedReads: string[];
  notDeployed?: NotDeployedRead[];
  pins: RiskPins;
}): RiskStatus {
  const all = [...i.onChain, ...i.offChain];
  const unsafe = all.filter((t) => t.safe === false);
  const undecided = [
    ...i.onChain.filter((t) => t.safeWhen !== null && t.safe === null),
    ...i.offChain.filter((t) => t.safe === null),
  ];
  const overall = unsafe.length > 0 ? "attention" : undecided.length > 0 ? "unknown" : "ok";
  const judged = all.filter((t) => t.safe !== null).length;
  const summary = [
    `${i.onChain.length} on-chain and ${i.offChain.length} off-chain triggers; ${judged} have a safe state, ${judged - unsafe.length} of them are in it.`,
    unsafe.length
      ? `Out of their safe state: ${unsafe.map((t) => t.id).join(", ")}.`
      : "None is out of its safe state.",
    undecided.length ? `Undecided (a read failed): ${undecided.map((t) => t.id).join(", ")}.` : "",
    `${i.gaps.length} getter${i.gaps.length === 1 ? "" : "s"} the source names revert${i.gaps.length === 1 ? "s" : ""} on the deployed bytecode${i.gaps.length ? `: ${i.gaps.map((g) => g.id).join(", ")}` : ""}.`,
  ]
    .filter(Boolean)
    .join(" ");
  return {
    blockNumber: Number(i.blockNumber),
    timestamp: new Date(i.timestamp * 1000).toISOString(),
    overall,
    summary,
    triggers: { onChain: i.onChain, offChain: i.offChain },
    gaps: i.gaps,
    gapSource: i.gapSource,
    failedReads: i.failedReads,
    notDeployed: i.notDeployed ?? [],
    pins: i.pins,
  };
}
