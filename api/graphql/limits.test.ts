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
