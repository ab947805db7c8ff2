/**
 * The gateway descriptor (spec 4 and 9): OpenAPI 3.1.0, version 1.0.0, both paid operations
 * (tag Verification, getReserves and postInstantRead) with the request and response schemas of
 * spec 2.1/2.2 (the zod contracts of packages/core/src/attestation/paid-schema.ts, through operations.ts), the
 * 402 answer, per-operation pricing (`x-payment-info`) and the gateway's network, recipient and
 * builder code.
 */
import type { Address } from "viem";
import { jsonSchemaOf, PAID_OPERATIONS, type PaidOperation } from "./operations.js";
import { type PaidTerms, unitsText } from "./x402-routes.js";

export type DescriptorOptions = {
  baseUrl: string;
  network: string;
  recipient: Address;
  builderCode: string;
  asset: { address: Address; symbol: string; decimals: number };
  prices: { reserves: string; instantRead: string };
};

const error = {
  type: "object",
  required: ["error"],
  properties: {
    error: {
      type: "object",
      required: ["code", "message"],
      properties: { code: { type: "string" }, message: { type: "string" }, details: { type: "object" } },
    },
  },
};

const paymentInfo = (amount: string, o: DescriptorOptions) => ({
  price: { mode: "fixed", currency: "USD", amount },
  protocol: "x402",
  x402Version: 2,
  scheme: "exact",
  network: o.network,
  asset: o.asset.address,
  payTo: o.recipient,
});

const paymentRequired = {
  description:
    "Payment Required: the x402 v2 challenge is in the PAYMENT-REQUIRED header (base64 JSON); pay and retry with PAYMENT-SIGNATURE",
  headers: {
    "PAYMENT-REQUIRED": {
      schema: { type: "string" },
      description: "base64-encoded JSON PaymentRequired (x402Version 2)",
    },
  },
  content: { "application/json": { schema: { type: "object" } } },
};

const op = (operationId: string): PaidOperation => {
  const found = PAID_OPERATIONS.find((o) => o.operationId === operationId);
  if (!found) throw new Error(`no paid operation ${operationId}`);
  return found;
};
const named = (o: PaidOperation) => ({ operationId: o.operationId, summary: o.summary });

const refused = (description: string) => ({
  description,
  content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } },
});

/**
 * How a paid operation is paid for: x402 v2, in a request header. OpenAPI has no scheme type for
 * a payment, so the header is declared as an apiKey-style scheme and the description says what it
 * carries; the 402 answer and `x-payment-info` give the terms.
 */
const X402_SCHEME = {
  type: "apiKey",
  in: "header",
  name: "PAYMENT-SIGNATURE",
  description:
    "x402 v2 (scheme exact): an unpaid request is answered 402 with the terms in the PAYMENT-REQUIRED header (base64 JSON PaymentRequired); retry with PAYMENT-SIGNATURE, the base64 JSON PaymentPayload carrying a signed EIP-3009 authorization of the asset for the price to the recipient. The answer's PAYMENT-RESPONSE header is the settlement receipt. Nothing is charged for an answer of 400 or more.",
};
const PAID_SECURITY = [{ x402: [] }];

const RESERVES_DESCRIPTION =
  "The latest hourly statement as a paid artifact: signed_payload_canonical with its EIP-191 signature and signer, and copies of signed fields (aggregate_solvency_ratio, status, schema_version, signer_binding, signer_binding_hash) that a verifier checks against the payload. The answer is settled only once it passes the buyers' own verification; one that fails is a 503 and nothing is charged.";
const INSTANT_READ_DESCRIPTION =
  "Reads an ERC-20's symbol, decimals and total supply on base or ethereum at a pinned block and signs the result with the key the signer binding assigns to now. The free checks come first (the body, the chain, an operator-owned address, the read itself): a refusal costs nothing.";

export function buildDescriptor(o: DescriptorOptions) {
  return {
    openapi: "3.1.0",
    info: {
      title: "kUSD paid verification gateway",
      version: "1.0.0",
      license: { name: "MIT", identifier: "MIT" },
      description:
        "Signed proof-of-reserves attestations and signed ERC-20 reads, sold per request over x402 v2 (scheme exact, USDC via EIP-3009). Verify a response by recovering the EIP-191 signer of attestation_hash and checking it against the signer binding.",
    },
    servers: [{ url: o.baseUrl }],
    "x-x402": {
      x402Version: 2,
      network: o.network,
      recipient: o.recipient,
      builderCode: o.builderCode,
      asset: o.asset,
    },
    tags: [{ name: "Verification", description: "Paid, signed artifacts" }],
    paths: {
      "/reserves": {
        get: {
          tags: ["Verification"],
          ...named(op("getReserves")),
          description: RESERVES_DESCRIPTION,
          security: PAID_SECURITY,
          "x-payment-info": paymentInfo(o.prices.reserves, o),
          responses: {
            "200": {
              description: "Attestation (spec 2.1) with the signed payload",
              headers: {
                "PAYMENT-RESPONSE": {
                  schema: { type: "string" },
                  description: "base64 JSON settlement receipt naming the transaction",
                },
              },
              content: { "application/json": { schema: { $ref: "#/components/schemas/ReservesAttestation" } } },
            },
            "402": paymentRequired,
            "409": refused("This payment authorization was already used (replay)"),
            "503": refused(
              "No attestation is available yet, or the attestation fails our own verification (artifact_unverifiable, the failed checks named); nothing was charged",
            ),
          },
        },
      },
      "/instant-read": {
        post: {
          tags: ["Verification"],
          ...named(op("postInstantRead")),
          description: INSTANT_READ_DESCRIPTION,
          security: PAID_SECURITY,
          "x-payment-info": paymentInfo(o.prices.instantRead, o),
          requestBody: {
            required: true,
            content: { "application/json": { schema: { $ref: "#/components/schemas/TokenReadRequest" } } },
          },
          responses: {
            "200": {
              description: "Token read (spec 2.2); the block number is inside the signed payload",
              headers: {
                "PAYMENT-RESPONSE": {
                  schema: { type: "string" },
                  description: "base64 JSON settlement receipt naming the transaction",
                },
              },
              content: { "application/json": { schema: { $ref: "#/components/schemas/TokenRead" } } },
            },
            "400": refused(
              "Malformed JSON, missing or malformed address, or chain outside base|ethereum; nothing was charged",
            ),
            "402": paymentRequired,
            "403": refused(
              "The address is the operator's own (registry account or protocol contract); nothing was charged",
            ),
            "409": refused("This payment authorization was already used (replay)"),
            "422": refused("No contract code, or not an ERC-20, at the address; nothing was charged"),
            "503": refused(
              "The chain could not be read, or the signed read fails our own verification (artifact_unverifiable); nothing was charged",
            ),
          },
        },
      },
    },
    components: {
      securitySchemes: { x402: X402_SCHEME },
      schemas: {
        Error: error,
        ReservesAttestation: jsonSchemaOf(op("getReserves").response.schema, "output"),
        TokenReadRequest: jsonSchemaOf(op("postInstantRead").request!.schema, "input"),
        TokenRead: jsonSchemaOf(op("postInstantRead").response.schema, "output"),
      },
    },
  };
}

/** The descriptor of a gateway with these terms, prices in whole units of the asset. */
export function gatewayDescriptor(o: PaidTerms) {
  return buildDescriptor({
    baseUrl: o.publicUrl,
    network: o.network,
    recipient: o.recipient,
    builderCode: o.builderCode,
    asset: { address: o.asset.address, symbol: o.asset.symbol, decimals: o.asset.decimals },
    prices: {
      reserves: unitsText(o.prices.reserves, o.asset.decimals),
      instantRead: unitsText(o.prices.instantRead, o.asset.decimals),
    },
  });
}
