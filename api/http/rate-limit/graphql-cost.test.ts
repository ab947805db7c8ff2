import { parse } from "graphql";
import { describe, expect, it } from "vitest";
import { LIMITS } from "../../graphql/limits.js";
import { standaloneApp } from "../../standalone-app.js";
import { COMPLEXITY_PER_POINT, COSTS } from "./cost-table.js";
import { armorComplexity, GRAPHQL_MAX_POINTS, graphqlCost } from "./graphql-cost.js";

/** A report's points at a block: the head's at none, a past block's at any other. */
const atBlock = async (block: string) => (block === "" ? COSTS.report.points : COSTS.past_block.points);
const cost = (query: string, extra: Record<string, unknown> = {}) => graphqlCost({ query, ...extra }, atBlock);
const complexity = (query: string) => {
  const document = parse(query);
  return armorComplexity(document, document.definitions[0] as Parameters<typeof armorComplexity>[1]);
};

const swaps = (first: number) =>
  `{ psmSwaps(first: ${first}) { nodes { txHash timestamp kusdAmount usdcAmount feeBps psm { key label } } } }`;

describe("a GraphQL request's points", () => {
  it("take the complexity GraphQL Armor itself finds in the running schema", async () => {
    // Over the limit, Armor's refusal names the complexity it found: the figure charged is that one.
    const query = swaps(1000);
    const res = await standaloneApp().request("/graphql", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ query }),
    });
    const body = (await res.json()) as { errors: Array<{ message: string }> };
    const found = Number(/found ([\d.]+)/.exec(body.errors[0]!.message)?.[1]);
    expect(found).toBeGreaterThan(LIMITS.maxCost);
    expect(complexity(query)).toBe(found);
  });

  it("are 1 plus 1 per 500 of complexity, capped where Armor refuses", async () => {
    const small = swaps(10);
    expect((await cost(small)).points).toBe(1 + Math.ceil(complexity(small) / COMPLEXITY_PER_POINT));
    expect(await cost(swaps(100))).toEqual({
      route: "graphql",
      points: 1 + Math.ceil(complexity(swaps(100)) / COMPLEXITY_PER_POINT),
    });
    // Refused by Armor before it runs: charged as a query at the limit.
    expect((await cost(swaps(1000))).points).toBe(1 + LIMITS.maxCost / COMPLEXITY_PER_POINT);
  });

  it("add each reserves or stats field as its REST report: at the head, or at a past block", async () => {
    const head = "{ reserves { blockNumber } }";
    const past = '{ reserves(block: "500") { blockNumber } stats(block: 7) { blockNumber } }';
    expect((await cost(head)).points).toBe(1 + Math.ceil(complexity(head) / 500) + COSTS.report.points);
    expect((await cost(past)).points).toBe(1 + Math.ceil(complexity(past) / 500) + 2 * COSTS.past_block.points);
    const byVariable = "query ($b: BigInt) { reserves(block: $b) { blockNumber } }";
    expect((await cost(byVariable, { variables: { b: "500" } })).points).toBe(
      1 + Math.ceil(complexity(byVariable) / 500) + COSTS.past_block.points,
    );
    expect((await cost(byVariable, { variables: {} })).points).toBe(
      1 + Math.ceil(complexity(byVariable) / 500) + COSTS.report.points,
    );
    expect(GRAPHQL_MAX_POINTS).toBe(1 + LIMITS.maxCost / 500 + LIMITS.maxChainReports * COSTS.past_block.points);
  });

  it("charge the operation that runs, and a subscription as opening a stream", async () => {
    const two = `query Small { stats { blockNumber } } query Big ${swaps(100)}`;
    expect((await cost(`query Big ${swaps(100)}`)).points).toBe((await cost(swaps(100))).points);
    expect((await cost(two, { operationName: "Small" })).points).toBeLessThan(
      (await cost(two, { operationName: "Big" })).points,
    );
    expect(await cost("subscription { signedStatements { attestationHash } }")).toEqual({
      route: "subscription",
      points: COSTS.subscription.points,
    });
  });

  it("are one point for what yoga refuses before it runs", async () => {
    for (const params of [
      { query: "{ nope" },
      { query: `{ a${"[".repeat(100)} }` },
      { query: "query A { a } query B { b }" },
      { query: 5 },
      { notAQuery: true },
    ])
      expect(await graphqlCost(params, atBlock)).toEqual({ route: "graphql", points: 1 });
    expect(await graphqlCost([{ query: "{ a }" }], atBlock)).toEqual({ route: "graphql", points: 1 });
  });
});
