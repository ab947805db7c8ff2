/**
 * The committed contracts (docs/api/, written by `npm run gen:api-contracts`) are what the test
 * stack serves: the free OpenAPI document, the paid gateway's descriptor and the GraphQL schema
 * as introspection gives it. The committed files are generated for Base at
 * http://localhost:42069; the test stack is the devnet on a free port, so the deployment's own
 * values (server URLs and the x-discovery links, the x402 network, recipient, asset and builder
 * code) are set aside on both sides before comparing. Everything else, to the last description,
 * must be equal.
 */
import { readFileSync } from "node:fs";
import {
  buildClientSchema,
  getIntrospectionQuery,
  type IntrospectionQuery,
  lexicographicSortSchema,
  printSchema,
} from "graphql";
import { describe, expect, it } from "vitest";
import { stack } from "../helpers/stack.js";

const s = stack();
const DEPLOYMENT = "(deployment)";
const regenerate = (file: string, served: string) =>
  `docs/api/${file} is not what ${served} serves: run \`npm run gen:api-contracts\` and commit docs/api`;
const committed = (file: string) => readFileSync(new URL(`../../docs/api/${file}`, import.meta.url), "utf8");

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => v !== null && typeof v === "object" && !Array.isArray(v);

/** Pretty JSON with every object's keys sorted, so the failure shows a readable line diff. */
const canonical = (value: unknown): string => {
  const sorted = (v: unknown): unknown =>
    Array.isArray(v)
      ? v.map(sorted)
      : isObject(v)
        ? Object.fromEntries(
            Object.keys(v)
              .sort()
              .map((k) => [k, sorted(v[k])]),
          )
        : v;
  return `${JSON.stringify(sorted(value), null, 2)}\n`;
};

/** The document with the values that name a deployment rather than the contract replaced by one marker. */
function withoutDeployment(doc: Json): Json {
  const d = structuredClone(doc);
  const mark = (o: unknown, keys: string[]) => {
    if (isObject(o)) for (const k of keys) if (k in o) o[k] = DEPLOYMENT;
  };
  if (Array.isArray(d.servers)) for (const server of d.servers) mark(server, ["url"]);
  mark(d["x-discovery"], ["llmsTxtUrl", "mcpUrl", "x402Url", "paidOpenApiUrl"]);
  mark(d["x-x402"], ["network", "recipient", "builderCode"]);
  if (isObject(d["x-x402"])) mark(d["x-x402"].asset, ["address"]);
  for (const ops of Object.values(isObject(d.paths) ? d.paths : {})) {
    for (const op of Object.values(isObject(ops) ? ops : {}))
      if (isObject(op)) mark(op["x-payment-info"], ["network", "asset", "payTo"]);
  }
  return d;
}

const served = async (path: string): Promise<Json> => {
  const r = await fetch(`${s.indexerUrl}${path}`);
  expect(r.status, path).toBe(200);
  return (await r.json()) as Json;
};

describe("the committed API contracts are the served ones", () => {
  for (const [file, path] of [
    ["openapi.json", "/api/openapi.json"],
    ["paid-openapi.json", "/paid/openapi.json"],
  ] as const) {
    it(`docs/api/${file} is GET ${path} (deployment values aside)`, async () => {
      const text = committed(file);
      expect(text, `docs/api/${file} is not canonical: run \`npm run gen:api-contracts\``).toBe(
        canonical(JSON.parse(text)),
      );
      expect(canonical(withoutDeployment(await served(path))), regenerate(file, `GET ${path}`)).toBe(
        canonical(withoutDeployment(JSON.parse(text) as Json)),
      );
    });
  }

  it("docs/api/schema.graphql is the schema introspection over POST /graphql gives", async () => {
    const query = getIntrospectionQuery({
      descriptions: true,
      specifiedByUrl: true,
      directiveIsRepeatable: true,
      schemaDescription: true,
      inputValueDeprecation: true,
      oneOf: true,
    });
    const r = await fetch(`${s.indexerUrl}/graphql`, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json" },
      body: JSON.stringify({ query }),
    });
    expect(r.status).toBe(200);
    const body = (await r.json()) as { data?: IntrospectionQuery; errors?: unknown };
    expect(body.errors).toBeUndefined();
    const sdl = `${printSchema(lexicographicSortSchema(buildClientSchema(body.data!)))}\n`;
    expect(sdl, regenerate("schema.graphql", "POST /graphql (introspection)")).toBe(committed("schema.graphql"));
  });
});
