/**
 * The GraphQL schema is committed (docs/api/schema.graphql, `npm run gen:api-contracts`): the
 * schema this code builds must be that file, and introspection over /graphql (what a client
 * and test/e2e/api-contracts.test.ts see) must print the same.
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import type { GraphQLSchema, IntrospectionQuery } from "graphql";
import { describe, expect, it } from "vitest";
import { schema } from "./schema.js";
import { createGraphQL } from "./yoga.js";

// The graphql instance the schema was built with: Node loads graphql's CommonJS build for Pothos,
// while an `import` here would get the ES build through Vite (graphql refuses a schema of the other).
const { buildClientSchema, getIntrospectionQuery, lexicographicSortSchema, printSchema } = createRequire(
  import.meta.url,
)("graphql") as typeof import("graphql");

const COMMITTED = "docs/api/schema.graphql";
const REGENERATE = `${COMMITTED} is not the schema /graphql serves: run \`npm run gen:api-contracts\` and commit docs/api`;
const committed = readFileSync(new URL(`../../${COMMITTED}`, import.meta.url), "utf8");
const sdl = (s: GraphQLSchema) => `${printSchema(lexicographicSortSchema(s))}\n`;

describe("the committed GraphQL schema", () => {
  it("is the schema the code builds", () => {
    expect(sdl(schema), REGENERATE).toBe(committed);
  });

  it("is what introspection over /graphql answers", async () => {
    const yoga = createGraphQL({ db: {} } as never);
    const query = getIntrospectionQuery({
      descriptions: true,
      specifiedByUrl: true,
      directiveIsRepeatable: true,
      schemaDescription: true,
      inputValueDeprecation: true,
      oneOf: true,
    });
    const res = await yoga.fetch(
      new Request("http://x/graphql", {
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json" },
        body: JSON.stringify({ query }),
      }),
    );
    const body = (await res.json()) as { data?: IntrospectionQuery; errors?: unknown };
    expect(body.errors).toBeUndefined();
    expect(sdl(buildClientSchema(body.data!)), REGENERATE).toBe(committed);
  });
});
