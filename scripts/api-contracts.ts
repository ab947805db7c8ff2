/**
 * The API's published contracts, built in process with no running stack: the free OpenAPI
 * document (what GET /api/openapi.json serves), the paid gateway's descriptor (GET
 * /paid/openapi.json) and the GraphQL schema. `npm run gen:api-contracts` writes them to
 * docs/api/; scripts/api-contracts.test.ts lints the two OpenAPI documents and checks their
 * parameters against the server.
 *
 * The application is api/standalone-app.ts (the committed Base network document, served at
 * http://localhost:42069, its chains unreachable), with the paid gateway switched on by a
 * placeholder recipient (the zero address: the Base document configures none) and an in-process
 * facilitator whose key pays for nothing. Nothing is read from a chain, a database or this
 * machine, so every machine builds the same bytes. test/e2e/api-contracts.test.ts compares docs/api/ with what the test stack serves,
 * apart from the deployment's own values (server URL, recipient, asset, builder code, network).
 */
import { lexicographicSortSchema, printSchema } from "graphql";
import type { Hono } from "hono";
import { keccak256, stringToHex, zeroAddress } from "viem";
import { schema } from "../api/graphql/schema.js";
import type { ReadDb } from "../api/io/indexed-reads.js";
import { STANDALONE_SITE_URL, standaloneApp } from "../api/standalone-app.js";
import type { OperatorStore } from "../api/store/operator-store.js";

/** The site URL the committed documents name (`npm start`'s). */
export const CONTRACT_SITE_URL = STANDALONE_SITE_URL;

export type ContractAppParts = {
  /** The indexed database; default: an empty stand-in nothing reads while documents are generated. */
  db?: ReadDb;
  /** The operator store; default: one that never opens (nothing asks for it). */
  store?: Promise<OperatorStore>;
  /** Switch the paid gateway on (default): its descriptor is one of the documents. */
  paid?: boolean;
};

/**
 * The application whose routes the documents describe, from stand-in parts: while the documents
 * are generated no request reaches a report, the store or the chain. A test that sends requests
 * passes parts that refuse at once (see api-contracts.test.ts).
 */
export function contractApp(parts: ContractAppParts = {}): Hono {
  return standaloneApp({
    db: parts.db,
    store: parts.store,
    env:
      parts.paid === false
        ? {}
        : {
            KUSD_PAYMENT_RECIPIENT: zeroAddress,
            KUSD_FACILITATOR_PRIVATE_KEY: keccak256(stringToHex("kusd:api-contracts:unused-facilitator")),
          },
  });
}

export type OpenApiDoc = {
  openapi: string;
  paths: Record<string, Record<string, OpenApiOperation>>;
  tags?: { name: string; description?: string }[];
  [key: string]: unknown;
};
export type OpenApiParameter = {
  name: string;
  in: string;
  description?: string;
  schema?: { type?: string; pattern?: string; enum?: string[] };
};
export type OpenApiOperation = {
  summary?: string;
  description?: string;
  tags?: string[];
  security?: Record<string, string[]>[];
  parameters?: OpenApiParameter[];
  responses: Record<string, unknown>;
};

/** The two OpenAPI documents as the app serves them. */
export async function openApiDocuments(app: Hono = contractApp()): Promise<{ free: OpenApiDoc; paid: OpenApiDoc }> {
  const get = async (path: string) => {
    const r = await app.request(`${CONTRACT_SITE_URL}${path}`);
    if (r.status !== 200) throw new Error(`${path} answered ${r.status}: ${await r.text()}`);
    return (await r.json()) as OpenApiDoc;
  };
  return { free: await get("/api/openapi.json"), paid: await get("/paid/openapi.json") };
}

/** Pretty JSON, two spaces, every object's keys sorted (arrays keep their order), newline-terminated. */
export function canonicalJson(value: unknown): string {
  const sorted = (v: unknown): unknown =>
    Array.isArray(v)
      ? v.map(sorted)
      : v !== null && typeof v === "object"
        ? Object.fromEntries(
            Object.keys(v)
              .sort()
              .map((k) => [k, sorted((v as Record<string, unknown>)[k])]),
          )
        : v;
  return `${JSON.stringify(sorted(value), null, 2)}\n`;
}

/** The files of docs/api/, by name. */
export async function apiContracts(): Promise<Record<string, string>> {
  const { free, paid } = await openApiDocuments();
  return {
    "openapi.json": canonicalJson(free),
    "paid-openapi.json": canonicalJson(paid),
    "schema.graphql": `${printSchema(lexicographicSortSchema(schema))}\n`,
  };
}
