/**
 * The published shape of a registry violation (spec 2.6 rule 2) and of a page of them
 * (`/api/por/accounts/violations`): the schema is the type the route returns, the monitor's
 * check of what it reads, and the OpenAPI entry.
 */
import { getAddress, type Hex } from "viem";
import { z } from "zod";
import { basePins, type Pins, pinsSchema } from "../reports/pins.js";
import { isoTime, tokenDecimals, toUnits } from "../reserves/units.js";
import { addressSchema, hash32Schema, isoTimeSchema, weiSchema } from "../schema-primitives.js";

/** A violation as indexed (the `registry_violation` row). */
export type ViolationRow = {
  id: string;
  token: Hex;
  tokenSymbol: string;
  from: Hex;
  to: Hex;
  amount: bigint;
  registryVersion: number;
  txHash: Hex;
  blockNumber: bigint;
  timestamp: bigint;
  logIndex: number;
};

export const ViolationSchema = z.strictObject({
  id: z.string(),
  cursor: z
    .string()
    .regex(/^\d+:\d+$/)
    .describe("<block>:<logIndex>; `after=<cursor>` resumes a listing right after this violation"),
  token: addressSchema,
  tokenSymbol: z.string(),
  amount: z.number().describe("amount in whole tokens"),
  amountRaw: weiSchema,
  decimals: z.number().int(),
  from: addressSchema.describe("the listed account the funds left"),
  to: addressSchema.describe("the unlisted receiver"),
  txHash: hash32Schema,
  blockNumber: z.number().int(),
  logIndex: z.number().int(),
  timestamp: isoTimeSchema,
  registryVersion: z.number().int().describe("the registry version in force at the transfer's block time"),
});
export type Violation = z.infer<typeof ViolationSchema>;

export const indexedHeadSchema = z
  .strictObject({ blockNumber: z.number().int(), timestamp: isoTimeSchema })
  .describe("the newest block the indexer has processed");

/** Which window of the whole list a page is: what its query asked, with the defaults filled in. */
export type ViolationWindow = {
  after: { block: bigint; logIndex: number } | null;
  fromBlock: bigint;
  toBlock: bigint;
  limit: number;
};

export const ViolationPinsSchema = pinsSchema({
  window: z
    .strictObject({
      after: z
        .string()
        .regex(/^\d+:\d+$/)
        .nullable()
        .describe("the cursor the page resumes after (null: from the start)"),
      fromBlock: z.int().nonnegative(),
      toBlock: z.int().nonnegative().describe("the query's toBlock, else the indexed head"),
      limit: z.int().positive(),
    })
    .describe(
      "the page's window of the whole list (every violation up to the indexed head, in (block, logIndex) order)",
    ),
});
export type ViolationPins = z.infer<typeof ViolationPinsSchema>;

export const ViolationPageSchema = z.strictObject({
  indexedHead: indexedHeadSchema,
  rule: z.string(),
  violations: z.array(ViolationSchema),
  next: z.string().nullable().describe("cursor of the next page, null on the last page"),
  pins: ViolationPinsSchema,
});
export type ViolationPage = z.infer<typeof ViolationPageSchema>;

export const VIOLATION_RULE =
  "spec 2.6 rule 2: a transfer from a listed account to an address neither listed, a user redemption or withdrawal, a same-transaction flash-loan leg, a burn, nor a disclosed venue deposit (see /api/por/accounts violation_predicate)";

const atOrAfter = (v: ViolationRow, after: ViolationWindow["after"]) =>
  after === null || v.blockNumber > after.block || (v.blockNumber === after.block && v.logIndex > after.logIndex);

/** The page's rows out of the whole list, as the indexed read selects them: after the cursor, in the block range, in (block, logIndex) order, at most `limit`. */
export function violationsInWindow(all: readonly ViolationRow[], w: ViolationWindow): ViolationRow[] {
  return all
    .filter((v) => atOrAfter(v, w.after) && v.blockNumber >= w.fromBlock && v.blockNumber <= w.toBlock)
    .sort((a, b) => (a.blockNumber < b.blockNumber ? -1 : a.blockNumber > b.blockNumber ? 1 : a.logIndex - b.logIndex))
    .slice(0, w.limit);
}

/** A page of violations: the rows of its window, the cursor of the next page when this one is full. */
export function buildViolationPage(i: {
  indexedHead: { blockNumber: bigint; timestamp: number };
  rows: readonly ViolationRow[];
  window: ViolationWindow;
  pins: Pins;
}): ViolationPage {
  const views = i.rows.map(violationView);
  const w = i.window;
  return {
    indexedHead: { blockNumber: Number(i.indexedHead.blockNumber), timestamp: isoTime(i.indexedHead.timestamp) },
    rule: VIOLATION_RULE,
    violations: views,
    next: views.length === w.limit ? views.at(-1)!.cursor : null,
    pins: {
      ...i.pins,
      window: {
        after: w.after === null ? null : `${w.after.block}:${w.after.logIndex}`,
        fromBlock: Number(w.fromBlock),
        toBlock: Number(w.toBlock),
        limit: w.limit,
      },
    },
  };
}

/** The window a page's pins name. */
export function windowOfPins(p: ViolationPins["window"]): ViolationWindow {
  const m = p.after === null ? null : /^(\d+):(\d+)$/.exec(p.after)!;
  return {
    after: m ? { block: BigInt(m[1]!), logIndex: Number(m[2]) } : null,
    fromBlock: BigInt(p.fromBlock),
    toBlock: BigInt(p.toBlock),
    limit: p.limit,
  };
}

/** The pins of a page: the indexed head's block, no venue. */
export const violationPins = (o: Omit<Parameters<typeof basePins>[0], "report" | "venue">): Pins =>
  basePins({ ...o, report: "violations", venue: null });

export function violationView(v: ViolationRow): Violation {
  const decimals = tokenDecimals(v.tokenSymbol);
  return {
    id: v.id,
    cursor: `${v.blockNumber}:${v.logIndex}`,
    token: getAddress(v.token),
    tokenSymbol: v.tokenSymbol,
    amount: toUnits(v.amount, decimals),
    amountRaw: v.amount.toString(),
    decimals,
    from: getAddress(v.from),
    to: getAddress(v.to),
    txHash: v.txHash,
    blockNumber: Number(v.blockNumber),
    logIndex: v.logIndex,
    timestamp: isoTime(Number(v.timestamp)),
    registryVersion: v.registryVersion,
  };
}
