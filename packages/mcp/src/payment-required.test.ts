import { describe, expect, it } from "vitest";
import { paymentRequiredOf, settlementOf } from "./payment-required.js";

const required = { x402Version: 2, resource: { url: "mcp://tool/t" }, accepts: [{ scheme: "exact", amount: "1" }] };

describe("paymentRequiredOf", () => {
  it("reads structuredContent first, else content[0].text", () => {
    expect(paymentRequiredOf({ isError: true, structuredContent: required, content: [] })).toEqual(required);
    expect(paymentRequiredOf({ isError: true, content: [{ type: "text", text: JSON.stringify(required) }] })).toEqual(
      required,
    );
  });
  it("is null for a free answer, a plain refusal or text that is not JSON", () => {
    expect(paymentRequiredOf({ structuredContent: required, content: [] })).toBeNull();
    expect(paymentRequiredOf({ isError: true, content: [{ type: "text", text: "invalid_block: …" }] })).toBeNull();
    expect(paymentRequiredOf({ isError: true, content: [{ type: "text", text: '{"x402Version":2}' }] })).toBeNull();
  });
});

describe("settlementOf", () => {
  it("reads _meta x402/payment-response", () => {
    const receipt = { success: true, transaction: "0x01", network: "eip155:8453" };
    expect(settlementOf({ content: [], _meta: { "x402/payment-response": receipt } })).toEqual(receipt);
    expect(settlementOf({ content: [] })).toBeNull();
  });
});
