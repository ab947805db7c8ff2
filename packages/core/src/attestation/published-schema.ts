/**
 * What the statement endpoints publish (spec 2.1): a signed artifact, the list of past
 * statements and the signer binding. The schemas are the routes' types, the verifier's first
 * check of what it downloaded, and the OpenAPI entries.
 */
import { z } from "zod";
import { addressSchema, hash32Schema, hexSchema } from "../schema-primitives.js";
import { AnchorViewSchema } from "./anchor.js";

/** The four fields every signed artifact carries; the signature is over attestation_hash. */
export const signedArtifactShape = {
  attestation_hash: hash32Schema.describe(
    "SHA-256 of signed_payload_canonical; the EIP-191 signature is over these 32 bytes",
  ),
  signature: hexSchema.describe("EIP-191 signature over attestation_hash"),
  signer: addressSchema.describe("the account that signed (see /api/por/signer-registry)"),
  signed_payload_canonical: z
    .string()
    .describe("the exact bytes hashed: canonical JSON, keys sorted, with a numeric unix timestamp"),
};

export const PublishedStatementSchema = z.strictObject({
  attestation_hash: signedArtifactShape.attestation_hash,
  signature: signedArtifactShape.signature,
  signer: signedArtifactShape.signer,
  status: z
    .string()
    .describe(
      "PSM_SOLVENT, PSM_UNDER_BACKED or PSM_UNKNOWN, with _VAULT_V1_DEGRADED_KNOWN while the venue mirror is not reconciled",
    ),
  schema_version: z.number().int(),
  aggregate_solvency_ratio: z
    .number()
    .nullable()
    .describe("psm_usdc_reserve / outstanding_kusd; null when a read failed"),
  signed_payload_canonical: signedArtifactShape.signed_payload_canonical,
  anchor: AnchorViewSchema.optional(),
});
export type PublishedStatement = z.infer<typeof PublishedStatementSchema>;

export const StatementHistorySchema = z.strictObject({
  statements: z.array(
    z.strictObject({
      timestamp: z.number().int().describe("the signed unix timestamp"),
      blockNumber: z.number().int(),
      signer: addressSchema,
      status: z.string(),
      attestation_hash: hash32Schema,
      url: z.string().describe("where the full artifact is served"),
    }),
  ),
  next: z.string().nullable().describe("the next (older) page, null on the last page"),
});

export const SignerRegistrySchema = z.strictObject({
  ...signedArtifactShape,
  binding: z.strictObject({
    schema: z.literal("kusd-signer-binding/v1"),
    operator: addressSchema.describe("signs the binding and every artifact dated before valid_from"),
    attestation_signer: addressSchema.describe("signs every artifact dated at or after valid_from"),
    valid_from: z.number().int().describe("unix seconds"),
    valid_from_date: z.string(),
    scope: z.array(z.string()),
    statement: z.string(),
    timestamp: z.number().int(),
  }),
  verify: z.string().describe("the command that verifies the latest statement against this binding"),
});
