/**
 * The published shape of an account registry version (spec 2.6): the schema is the document's
 * type, its check in the tests and its entry in the OpenAPI document.
 */
import { z } from "zod";
import { addressSchema, hash32Schema, hexSchema } from "../schema-primitives.js";

const predicateSchema = z
  .strictObject({
    kind: z.literal("eth_call"),
    chain: z.literal("base"),
    chain_id: z.number().int(),
    to: addressSchema,
    data: hexSchema,
    expect: hexSchema.optional(),
    expect_address: addressSchema.optional(),
    expect_contains_address: addressSchema.optional(),
    means: z.string(),
    reproduction: z.string().describe("the cast call that makes the same eth_call"),
  })
  .describe("an eth_call whose answer shows the operator controls the contract");

/** A predicate as a registry document publishes it: its expectation as three optional fields. */
export type PublishedPredicate = z.infer<typeof predicateSchema>;

const observationSchema = z.strictObject({
  observed_at_block: z.number().int(),
  observed_value: hexSchema,
  holds: z.boolean(),
  rpc_used: z.string(),
});

const membershipProofSchema = z.discriminatedUnion("kind", [
  z.strictObject({ kind: z.literal("eoa_signature"), as_of: z.string(), message: z.string(), verify: z.string() }),
  z.strictObject({
    kind: z.literal("onchain_predicate"),
    as_of: z.string(),
    predicate: predicateSchema,
    secondary_predicate: predicateSchema.nullable(),
    why_not_a_signature: z.string(),
  }),
]);

const entryStatementSchema = z.strictObject({
  schema: z.string(),
  address: addressSchema,
  kind: z.enum(["eoa", "contract"]),
  chain: z.literal("base"),
  role: z.string(),
  venue: z.string().nullable(),
  label: z.string(),
  holds_protocol_funds: z.boolean(),
  backs_kusd: z.boolean(),
  public_state_read: z.string().nullable(),
  note: z.null(),
  membership_proof: membershipProofSchema,
  observation: observationSchema.extend({ secondary: observationSchema.optional() }).nullable(),
  issued_at: z.number().int().describe("unix seconds"),
});

export const registryEntrySchema = z.strictObject({
  statement: entryStatementSchema,
  statement_canonical: z.string().describe("the statement as canonical JSON (keys sorted, no whitespace)"),
  statement_digest: hash32Schema.describe("SHA-256 of statement_canonical"),
  membership_signature: hexSchema
    .nullable()
    .describe("EIP-191 signature over membership_message by the account (externally owned accounts only)"),
});

const venueReadSchema = z.strictObject({
  public_per_address_read: z.string(),
  requires_authentication: z.boolean(),
  returns: z.string(),
});

const disclosedDepositSchema = z.strictObject({
  address: addressSchema,
  symbol: z.string(),
  venue: z.string(),
  chain: z.string(),
  asset: z.string(),
  operator_controls: z.literal(false),
  holds_protocol_funds: z.literal(true),
  backs_kusd: z.literal(false),
  what_it_is: z.string(),
  receives_from: z.array(addressSchema),
  why_not_an_entry: z.string(),
  public_per_address_read: z.string(),
  requires_authentication: z.literal(false),
  returns: z.string(),
  disclosed_at: z.string(),
});

export const RegistryDocumentSchema = z.strictObject({
  registry: z.strictObject({
    schema: z.string(),
    operator: addressSchema,
    registry_version: z.number().int().positive(),
    as_of: z.string(),
    membership_message_template: z.string(),
    membership_message: z.string(),
    specified_by: z.string(),
    completeness_claim: z.string(),
    violation_predicate: z.string(),
    hedge_venue_policy: z.strictObject({
      rule: z.string(),
      admissible_venues: z.record(z.string(), venueReadSchema),
      inadmissible_examples: z.array(z.string()),
    }),
    disclosed_venue_deposits: z.strictObject({
      rule: z.string(),
      accounts: z.array(disclosedDepositSchema),
      funds_sent_are: z.string(),
      what_a_balance_here_means: z.string(),
    }),
    account_set_digest: hash32Schema.describe(
      "SHA-256 over the canonical JSON of the entries' checksummed addresses, sorted",
    ),
    entries: z.array(registryEntrySchema),
    issued_at: z.number().int().describe("unix seconds"),
  }),
});

export type RegistryDocument = z.infer<typeof RegistryDocumentSchema>;

export const RegistryVersionsSchema = z.strictObject({
  versions: z.array(
    z.strictObject({
      registry_version: z.number().int(),
      as_of: z.string(),
      issued_at: z.number().int(),
      entries: z.number().int().describe("number of listed accounts"),
      account_set_digest: hash32Schema,
    }),
  ),
});
