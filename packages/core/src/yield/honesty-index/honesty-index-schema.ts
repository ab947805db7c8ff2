/**
 * The published shape of GET /api/honesty-index: a realized-yield board for ERC-4626 vaults.
 * Realized APY over each window comes from convertToAssets(one share) read at blocks pinned to
 * the window's ends, with the advertised APY beside it where known; the board is signed in the
 * statements' scheme when a signing key is loaded. The board is assembled where it is read
 * (api/yield/honesty-index.ts); this schema is its declared type, its check in the tests and its
 * OpenAPI entry (plain JSON types only, for z.toJSONSchema).
 */
import { z } from "zod";
import { BlockPinSchema, pinsSchema } from "../../reports/pins.js";
import { addressSchema, hash32Schema, hexSchema, isoTimeSchema, verifyViaSchema } from "../../schema-primitives.js";

/** A vault on the board: ours from the network, peers from KUSD_HONESTY_PEERS. */
export const BoardVaultSchema = z.strictObject({
  name: z.string(),
  chain: z.enum(["base", "ethereum"]),
  address: addressSchema,
  shareDecimals: z.number().int().min(0).max(77),
  assetDecimals: z.number().int().min(0).max(77),
  advertised: z
    .union([z.literal("kusd-expected-apy"), z.number(), z.null()])
    .describe("the advertised APY to compare with, 'kusd-expected-apy' for ours, null when none"),
});
export type BoardVault = z.infer<typeof BoardVaultSchema>;

/** The realized-APY windows, in days; each is a key `<days>d` of a row's `realized`. */
export const BOARD_WINDOWS_DAYS = [7, 30, 90] as const;

const blockSchema = (end: string) =>
  z.number().int().nullable().describe(`the block the ${end} share price was read at; null when there is none`);

export const RealizedWindowSchema = z.strictObject({
  realizedAPY: z
    .number()
    .nullable()
    .describe(
      "(convertToAssets(1 share) at toBlock / at fromBlock − 1) × 365 / days between the blocks, 8 decimals; null when either read is missing (or the first is 0)",
    ),
  fromBlock: blockSchema("window's first"),
  toBlock: blockSchema("latest"),
  note: z
    .string()
    .optional()
    .describe(
      "present only when the window has no start: the vault is younger than the window, or its share price could not be read",
    ),
});
export type RealizedWindow = z.infer<typeof RealizedWindowSchema>;

const realizedSchema = z
  .strictObject({ "7d": RealizedWindowSchema, "30d": RealizedWindowSchema, "90d": RealizedWindowSchema })
  .describe("realized APY per window, keyed by its length in days");

/** Where a row's advertised APY comes from: kUSD's own expected APY, or the operator's configuration. */
export const AdvertisedSourceSchema = z.enum(["/api/apy expectedAPY", "configured"]);

const chainSchema = z.enum(["base", "ethereum"]).describe("the chain the vault lives on");

export const HonestyIndexRowSchema = z.strictObject({
  name: z.string().describe("the vault's name on the board"),
  chain: chainSchema,
  address: addressSchema.describe("the ERC-4626 vault"),
  shareDecimals: z.number().int().describe("decimals of one share, the amount convertToAssets is read for"),
  realized: realizedSchema,
  advertisedAPY: z
    .number()
    .nullable()
    .describe("the APY the vault advertises, a fraction at 8 decimals; null when none is known"),
  advertisedSource: AdvertisedSourceSchema.nullable().describe(
    "where advertisedAPY comes from; null when the vault advertises none",
  ),
  verify: verifyViaSchema.describe(
    "the cast calls behind every share price read (latest first, then each window's start)",
  ),
});
export type HonestyIndexRow = z.infer<typeof HonestyIndexRowSchema>;

/** A window's start: the last block at or before its target time, and the first block after it. */
export const BoardWindowPinSchema = z
  .strictObject({
    chain: chainSchema.describe("the chain whose head the window is counted back from"),
    days: z.int().positive().describe("the window's length, the `<days>d` key of each row's realized"),
    target: z.int().describe("the chain's head block time minus the window, unix seconds"),
    block: BlockPinSchema.nullable().describe(
      "the last block whose time is at or before target (every row's fromBlock); null when the chain begins after it",
    ),
    next: BlockPinSchema.nullable().describe(
      "the block after it, the first whose time is past target: the two timestamps bracket target (null: none read)",
    ),
  })
  .describe("where a window starts on one chain, with the headers that show it is the last block at or before target");

export const HonestyIndexPinsSchema = pinsSchema({
  ethereumBlock: BlockPinSchema.nullable().describe(
    "the Ethereum head the vaults on ethereum are read at (block is Base's); null when the board has none",
  ),
  windows: z.array(BoardWindowPinSchema).describe("each window's start block per chain read, 7, 30 and 90 days"),
  peers: z
    .array(BoardVaultSchema)
    .describe("the vaults after ours as configured (KUSD_HONESTY_PEERS): a declaration of the service"),
  expectedAPY: z
    .number()
    .nullable()
    .describe(
      "/api/apy expectedAPY when the board was built, skUSD's advertised APY (a model of the deployed book, re-derived from /api/apy's own pins, not here)",
    ),
});
export type HonestyIndexPins = z.infer<typeof HonestyIndexPinsSchema>;

/** What the board signs (canonical JSON of this is signed_payload_canonical). */
export const HonestyIndexPayloadSchema = z.strictObject({
  kind: z.literal("realized-yield-board"),
  timestamp: z.number().int().describe("unix seconds: when the board was computed, inside the signed bytes"),
  method: z.string().describe("how realized APY is computed"),
  // Every row as published: a figure shown beside the signed bytes but outside them would not be
  // covered by the signature (a verifier fails any top-level copy that differs from the payload).
  vaults: z.array(HonestyIndexRowSchema),
  // Signed with the rows: each row's block numbers are then named by hash, and the declaration read with them.
  pins: HonestyIndexPinsSchema,
});
export type HonestyIndexPayload = z.infer<typeof HonestyIndexPayloadSchema>;

export const HonestyIndexSchema = z
  .strictObject({
    kind: HonestyIndexPayloadSchema.shape.kind,
    timestamp: HonestyIndexPayloadSchema.shape.timestamp,
    method: HonestyIndexPayloadSchema.shape.method,
    vaults: z.array(HonestyIndexRowSchema).describe("one row per vault: kUSD's staking vaults, then configured peers"),
    pins: HonestyIndexPayloadSchema.shape.pins,
    updatedAt: isoTimeSchema.describe("timestamp as an ISO 8601 instant"),
    attestation_hash: hash32Schema
      .nullable()
      .describe("SHA-256 of signed_payload_canonical; null when no signing key is loaded"),
    signature: hexSchema
      .nullable()
      .describe("EIP-191 signature over attestation_hash; null when no signing key is loaded"),
    signer: addressSchema
      .nullable()
      .describe("the account that signed (see /api/por/signer-registry); null when no signing key is loaded"),
    signed_payload_canonical: z
      .string()
      .nullable()
      .describe(
        "the exact bytes hashed: canonical JSON of kind, timestamp, method, every vault row and the pins as published; null when unsigned",
      ),
  })
  .describe(
    "realized-yield board: realized APY of ERC-4626 vaults from on-chain share prices, beside the APY they advertise",
  );
export type HonestyIndex = z.infer<typeof HonestyIndexSchema>;
