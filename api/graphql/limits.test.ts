import { describe, expect, it } from "vitest";
import { createGraphQL } from "./yoga.js";

const yoga = createGraphQL({ db: {} } as never);
const ask = async (query: string) => {
  const res = await yoga.fetch(new Request("http://x/graphql", { method: "POST", headers: { "content-type": "application/json", accept: "application/json" }, body: JSON.stringify({ query }) }));
  return (await res.json()) as { errors?: { message: string; extensions?: { code?: string } }[] };
};

describe("chain-read report limit", () => {
  it("refuses more than two chain-read reports per operation, aliases counted, before anything runs", async () => {
    const aliased = `{ ${Array.from({ length: 15 }, (_, i) => `r${i}: reserves { blockNumber }`).join(" ")} }`;
    const out = await ask(aliased);
    expect(out.errors?.[0]?.message).toMatch(/15 chain-read reports/);
    expect(out.errors?.[0]?.extensions?.code).toBe("COST_LIMIT");
    expect((await ask("{ a: reserves { blockNumber } b: stats { blockNumber } c: stats { blockNumber } }")).errors?.[0]?.message).toMatch(/3 chain-read reports/);
  });
});

describe("GraphQL Armor's limits", () => {
  it("answer an error with a stable code per limit: depth, cost, aliases, tokens", async () => {
    const nested = (depth: number): string => (depth === 0 ? "id" : `psmSwaps(first: 1) { nodes { ${nested(depth - 1)} } }`);
    const cases = {
      depth: `{ ${nested(6)} }`,
      aliases: `{ ${Array.from({ length: 16 }, (_, i) => `a${i}: psmSwaps(first: 1) { nodes { id } }`).join(" ")} }`,
      tokens: `{ ${Array.from({ length: 2_100 }, () => "__typename").join(" ")} }`,
      cost: `{ ${Array.from({ length: 12 }, (_, i) => `p${i}: psmSwaps(first: 500) { nodes { id psm { key } user { address } } }`).join(" ")} }`,
    };
    const codes = { depth: "DEPTH_LIMIT", aliases: "ALIAS_LIMIT", tokens: "TOKEN_LIMIT", cost: "COST_LIMIT" };
    for (const [limit, query] of Object.entries(cases)) {
      const out = await ask(query);
      expect(out.errors?.length, limit).toBeGreaterThan(0);
      expect({ limit, code: out.errors?.[0]?.extensions?.code }).toEqual({ limit, code: codes[limit as keyof typeof codes] });
    }
  });
});
