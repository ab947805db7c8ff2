import { InstantReadRequestSchema } from "@kusd/core";
import { getAddress } from "viem";
import { describe, expect, it } from "vitest";
import { ApiError } from "../http/errors.js";
import { parseInstantRead } from "./instant-read.js";

const USDC = "0x833589fcd6edb6e08f4c7c32d4f71b54bda02913";

function refusal(raw: string): string {
  try {
    parseInstantRead(raw);
  } catch (e) {
    expect(e).toBeInstanceOf(ApiError);
    expect((e as ApiError).status).toBe(400);
    return (e as ApiError).code;
  }
  throw new Error(`accepted ${raw}`);
}

describe("parseInstantRead", () => {
  it.each([
    ["{", "invalid_json"],
    ["[]", "invalid_body"],
    ["null", "invalid_body"],
    ['"x"', "invalid_body"],
    [JSON.stringify({ address: USDC, extra: 1 }), "unknown_field"],
    [JSON.stringify({ chain: "polygon", address: USDC }), "invalid_chain"],
    [JSON.stringify({ chain: 1, address: USDC }), "invalid_chain"],
    [JSON.stringify({ chain: null, address: USDC }), "invalid_chain"],
    [JSON.stringify({}), "address_required"],
    [JSON.stringify({ address: null }), "address_required"],
    [JSON.stringify({ address: "" }), "address_required"],
    [JSON.stringify({ address: "0x1234" }), "invalid_address"],
    [JSON.stringify({ address: 42 }), "invalid_address"],
    [JSON.stringify({ address: `0x${"g".repeat(40)}` }), "invalid_address"],
    // The checksum with one letter's case flipped.
    [JSON.stringify({ address: getAddress(USDC).replace("C", "c") }), "invalid_address_checksum"],
  ])("%s → 400 %s", (raw, code) => {
    expect(refusal(raw)).toBe(code);
  });

  it("reads base by default and returns the checksummed address, from lower, upper or checksummed case", () => {
    for (const address of [USDC, `0x${USDC.slice(2).toUpperCase()}`, getAddress(USDC)])
      expect(parseInstantRead(JSON.stringify({ address }))).toEqual({ chain: "base", address: getAddress(USDC) });
    expect(parseInstantRead(JSON.stringify({ chain: "ethereum", address: USDC })).chain).toBe("ethereum");
  });

  it("accepts exactly what the published request schema accepts", () => {
    const bodies = [
      { address: USDC },
      { chain: "ethereum", address: USDC },
      { chain: "polygon", address: USDC },
      { address: USDC, more: true },
      { address: "0x12" },
      {},
    ];
    for (const body of bodies) {
      const published = InstantReadRequestSchema.safeParse(body).success;
      let parsed = true;
      try {
        parseInstantRead(JSON.stringify(body));
      } catch {
        parsed = false;
      }
      expect(parsed, JSON.stringify(body)).toBe(published);
    }
  });
});
