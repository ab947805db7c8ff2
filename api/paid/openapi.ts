/**
 * The gateway descriptor (spec 4 and 9): OpenAPI 3.1.0, version 1.0.0, both paid operations
 * (tag Verification, getReserves and postInstantRead) with the request and response schemas of
 * spec 2.1/2.2, the 402 answer, per-operation pricing (`x-payment-info`) and the gateway's
 * network, recipient and builder code.
 */
import type { Address } from "viem";

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

const signed = {
  attestation_hash: {
    type: "string",
    pattern: "^0x[0-9a-f]{64}$",
    description: "SHA-256 of signed_payload_canonical; the signature is over these 32 bytes",
  },
  signature: {
    type: "string",
    pattern: "^0x[0-9a-fA-F]{130}$",
    description: "EIP-191 signature, verifiable against signer",
  },
  signer: {
    type: "string",
    pattern: "^0x[0-9a-fA-F]{40}$",
    description: "Externally owned account that signed (see the signer binding)",
  },
  signed_payload_canonical: {
    type: "string",
    description: "The exact bytes hashed: canonical JSON, keys sorted, with a numeric unix timestamp",
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

const refused = (description: string) => ({
  description,
  content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } },
});

export function buildDescriptor(o: DescriptorOptions) {
  return {
    openapi: "3.1.0",
    info: {
      title: "kUSD paid verification gateway",
      version: "1.0.0",
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
          operationId: "getReserves",
          summary: "The hourly proof-of-reserves attestation, EIP-191 signed",
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
          operationId: "postInstantRead",
          summary: "Signed read of an ERC-20's symbol, decimals and total supply at a pinned block",
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
      schemas: {
        Error: error,
        ReservesAttestation: {
          type: "object",
          required: ["attestation_hash", "signature", "signer"],
          properties: {
            ...signed,
            aggregate_solvency_ratio: {
              type: "number",
              description: "Aggregate USD solvency ratio of the kUSD reserves",
            },
            status: { type: "string" },
            schema_version: { type: "integer" },
            signer_binding: {
              type: "string",
              format: "uri",
              description: "Where the binding was published when the statement was signed (a signed field)",
            },
            signer_binding_hash: {
              type: ["string", "null"],
              pattern: "^0x[0-9a-f]{64}$",
              description:
                "The binding's attestation_hash (a signed field): fetch it from any host at /api/por/signer-registry/{hash}",
            },
          },
        },
        TokenReadRequest: {
          type: "object",
          required: ["address"],
          additionalProperties: false,
          properties: {
            chain: { type: "string", enum: ["base", "ethereum"], default: "base" },
            address: {
              type: "string",
              pattern: "^0x[0-9a-fA-F]{40}$",
              description: "ERC-20 contract; not an operator-owned address",
            },
          },
        },
        TokenRead: {
          type: "object",
          required: ["ok", "attestation_hash", "signature", "signer"],
          properties: {
            ok: { type: "boolean" },
            kind: { type: "string" },
            chain: { type: "string", enum: ["base", "ethereum"] },
            token: {
              type: "object",
              properties: {
                symbol: { type: "string" },
                decimals: { type: "integer" },
                totalSupplyGrouped: { type: "string" },
              },
            },
            ...signed,
          },
        },
      },
    },
  };
}
