/**
 * A statement anchored on Base: its hash attested through EAS by the key that signed it, so when
 * it was signed is on chain. The anchor's schema, its data from a statement, and the reader's
 * checks of an attestation against the statement it claims to anchor (pure: the reads are the
 * caller's).
 *
 * The schema's fields: what a reader needs to find and judge the statement without fetching it
 * (its hash and the block it is pinned to) and its two headline ratios, so a chain explorer
 * shows them. Ratios are scaled by 1e8 (the statement rounds them to 8 decimals); an unknown
 * ratio is 0 with `ratiosKnown` false, never a made-up number.
 */
import {
  type Address,
  decodeAbiParameters,
  encodeAbiParameters,
  encodePacked,
  getAddress,
  type Hex,
  keccak256,
  zeroAddress,
} from "viem";
import { z } from "zod";
import { addressSchema, hash32Schema } from "../schema-primitives.js";

export const ANCHOR_SCHEMA =
  "bytes32 attestationHash,uint64 reportBlock,bytes32 reportBlockHash,uint64 signedAt,uint64 psmSolvencyRatioE8,uint64 aggregateSolvencyUsdRatioE8,bool ratiosKnown";

const ANCHOR_PARAMS = [
  { name: "attestationHash", type: "bytes32" },
  { name: "reportBlock", type: "uint64" },
  { name: "reportBlockHash", type: "bytes32" },
  { name: "signedAt", type: "uint64" },
  { name: "psmSolvencyRatioE8", type: "uint64" },
  { name: "aggregateSolvencyUsdRatioE8", type: "uint64" },
  { name: "ratiosKnown", type: "bool" },
] as const;

/** The schema's UID as EAS's SchemaRegistry derives it: keccak256(schema, resolver, revocable). No resolver; not revocable. */
export const ANCHOR_SCHEMA_UID: Hex = keccak256(
  encodePacked(["string", "address", "bool"], [ANCHOR_SCHEMA, zeroAddress, false]),
);

/**
 * The anchor's `recipient`: an address made of the statement hash's last 20 bytes (no one holds
 * it). EAS indexes the recipient in its Attested event, so one eth_getLogs finds a statement's
 * anchor by its hash, without reading every attestation of the key.
 */
export const anchorRecipient = (attestationHash: Hex): Address => getAddress(`0x${attestationHash.slice(-40)}`);

/** An hour, the statements' cadence: a statement is anchored within it, or it is back-dated. */
export const ANCHOR_WINDOW_SECONDS = 3_600;

export type AnchorData = {
  attestationHash: Hex;
  reportBlock: bigint;
  reportBlockHash: Hex;
  signedAt: bigint;
  psmSolvencyRatioE8: bigint;
  aggregateSolvencyUsdRatioE8: bigint;
  ratiosKnown: boolean;
};

const e8 = (x: unknown) => (typeof x === "number" && Number.isFinite(x) && x >= 0 ? BigInt(Math.round(x * 1e8)) : null);

/** The anchor's data for a statement: its attestation_hash and its signed payload's fields. */
export function anchorData(attestationHash: Hex, payload: Record<string, unknown>): AnchorData {
  const psm = e8(payload.psm_solvency_ratio);
  const usd = e8(payload.aggregate_solvency_usd_ratio);
  return {
    attestationHash,
    reportBlock: BigInt(payload.report_block as number),
    reportBlockHash: (payload.report_block_hash as Hex | null) ?? `0x${"00".repeat(32)}`,
    signedAt: BigInt(payload.timestamp as number),
    psmSolvencyRatioE8: psm ?? 0n,
    aggregateSolvencyUsdRatioE8: usd ?? 0n,
    ratiosKnown: psm !== null && usd !== null,
  };
}

export const encodeAnchorData = (d: AnchorData): Hex =>
  encodeAbiParameters(ANCHOR_PARAMS, [
    d.attestationHash,
    d.reportBlock,
    d.reportBlockHash,
    d.signedAt,
    d.psmSolvencyRatioE8,
    d.aggregateSolvencyUsdRatioE8,
    d.ratiosKnown,
  ]);

/** The data of an attestation of this schema, or null when it does not decode as one. */
export function decodeAnchorData(data: Hex): AnchorData | null {
  try {
    const [attestationHash, reportBlock, reportBlockHash, signedAt, psm, usd, known] = decodeAbiParameters(
      ANCHOR_PARAMS,
      data,
    );
    return {
      attestationHash,
      reportBlock,
      reportBlockHash,
      signedAt,
      psmSolvencyRatioE8: psm,
      aggregateSolvencyUsdRatioE8: usd,
      ratiosKnown: known,
    };
  } catch {
    return null;
  }
}

/** An EAS attestation as getAttestation returns it (the fields read here). */
export type EasAttestation = {
  uid: Hex;
  schema: Hex;
  time: bigint;
  attester: Address;
  revocationTime: bigint;
  data: Hex;
};

export type AnchorCheck = { name: string; ok: boolean; detail?: string };

/** The `anchor` a published statement carries beside its signed bytes (unsigned: a reader checks it on chain). */
export const AnchorViewSchema = z
  .discriminatedUnion("status", [
    z.strictObject({ status: z.literal("pending").describe("not yet attested on chain (or not yet mined)") }),
    z.strictObject({
      status: z.literal("landed"),
      uid: hash32Schema.describe("the EAS attestation's UID: getAttestation(uid) on the EAS contract"),
      txHash: hash32Schema,
      blockNumber: z.int(),
      blockTime: z.int().describe("the anchor block's unix time, which EAS records as the attestation's time"),
      schemaUid: hash32Schema.describe("the statement schema's UID on EAS's SchemaRegistry"),
      eas: addressSchema.describe("the EAS contract (Base's predeploy)"),
      chainId: z.int(),
    }),
  ])
  .describe("where on Base this statement's hash was attested (EAS), or pending; not covered by the signature");
export type AnchorView = z.infer<typeof AnchorViewSchema>;

/** The statement's hour: the statements come hourly, and an hour has one. */
export const reportHour = (signedAt: number) => Math.floor(signedAt / 3_600);

/**
 * The anchor checks of a statement: the attestation exists, is of the anchor schema, by a key the
 * binding authorised, commits to this statement's hash, and was made within `windowSeconds` of the
 * signed time (later: back-dated); `sameHour` are the other anchors by that attester for the same
 * report hour (a different statement among them: a rewrite).
 */
export function anchorChecks(o: {
  attestationHash: Hex;
  signedAt: number;
  attestation: EasAttestation | null;
  authorised: readonly Address[];
  windowSeconds: number;
  sameHour: readonly { uid: Hex; attestationHash: Hex; time: bigint }[];
}): AnchorCheck[] {
  const a = o.attestation;
  if (!a || a.uid === `0x${"00".repeat(32)}`)
    return [{ name: "anchored", ok: false, detail: "no attestation with this UID on chain: unanchored" }];
  const data = a.schema === ANCHOR_SCHEMA_UID ? decodeAnchorData(a.data) : null;
  const lag = Number(a.time) - o.signedAt;
  const rewrites = o.sameHour.filter((x) => x.attestationHash.toLowerCase() !== o.attestationHash.toLowerCase());
  return [
    {
      name: "anchored",
      ok: data !== null && a.revocationTime === 0n,
      detail: data
        ? `EAS attestation ${a.uid} of the statement schema ${ANCHOR_SCHEMA_UID}`
        : `attestation ${a.uid} is not of the statement schema`,
    },
    {
      name: "anchor attester",
      ok: o.authorised.some((x) => x.toLowerCase() === a.attester.toLowerCase()),
      detail: `attested by ${a.attester}; authorised: ${o.authorised.join(", ") || "none"}`,
    },
    {
      name: "anchor commits",
      ok:
        data?.attestationHash.toLowerCase() === o.attestationHash.toLowerCase() && data.signedAt === BigInt(o.signedAt),
      detail: data ? `commits to ${data.attestationHash}, signed at ${data.signedAt}` : "no anchor data",
    },
    {
      name: "anchored in time",
      ok: lag >= -60 && lag <= o.windowSeconds,
      detail:
        lag > o.windowSeconds
          ? `anchored ${lag} s after the signed time, more than ${o.windowSeconds} s: back-dated`
          : lag < -60
            ? `anchored ${-lag} s before the signed time`
            : `anchored ${lag} s after the signed time (window ${o.windowSeconds} s)`,
    },
    {
      name: "one statement this hour",
      ok: rewrites.length === 0,
      detail:
        rewrites.length === 0
          ? `no other statement anchored by ${a.attester} for hour ${new Date(reportHour(o.signedAt) * 3_600_000).toISOString()}`
          : `rewritten: ${rewrites.length} other statement(s) anchored for the same hour (${rewrites.map((r) => r.attestationHash).join(", ")})`,
    },
  ];
}
