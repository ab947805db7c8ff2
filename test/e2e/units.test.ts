/**
 * The units the API's descriptions state (packages/core/src/indexed/units.ts) are the chain's: every token's
 * and vault share's `decimals()` on the deployed contracts, and the GraphQL descriptions of
 * share amounts name them.
 */

import { KUSD, SHARE_DECIMALS_TEXT, USDC, VAULT_UNITS, WETH } from "@kusd/core";
import { type Address, erc20Abi } from "viem";
import { describe, expect, it } from "vitest";
import { stack } from "../helpers/stack.js";

const s = stack();
const decimals = (address: Address) => s.client.readContract({ address, abi: erc20Abi, functionName: "decimals" });

describe("units", () => {
  it("each token's decimals() is the table's", async () => {
    expect(await decimals(s.addr("usdc"))).toBe(USDC.decimals);
    expect(await decimals(s.addr("kUSD"))).toBe(KUSD.decimals);
    expect(await decimals(s.addr("weth"))).toBe(WETH.decimals);
  });

  it("each vault's share decimals() is the table's", async () => {
    for (const [key, unit] of Object.entries(VAULT_UNITS)) {
      expect({ key, decimals: await decimals(s.addr(key)) }).toEqual({ key, decimals: unit.shares.decimals });
    }
  });

  it("GraphQL's share-balance description states every vault's share decimals", async () => {
    const res = await fetch(`${s.indexerUrl}/graphql`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ query: '{ __type(name: "ShareBalance") { fields { name description } } }' }),
    });
    const body = (await res.json()) as { data: { __type: { fields: { name: string; description: string | null }[] } } };
    const shares = body.data.__type.fields.find((f) => f.name === "shares");
    expect(shares?.description).toContain(SHARE_DECIMALS_TEXT);
  });
});
