import type { FacilitatorClient } from "@x402/core/server";
import { type Address, getAddress } from "viem";
import { describe, expect, it } from "vitest";
import { explainingInsufficientFunds, insufficientFundsReason } from "./insufficient-funds.js";

const USDC = { address: getAddress("0x833589fcd6edb6e08f4c7c32d4f71b54bda02913"), symbol: "USDC", decimals: 6 };
const payer = getAddress("0x1111111111111111111111111111111111111111");
const requirements = { scheme: "exact", network: "eip155:8453", asset: USDC.address, amount: "250000" } as never;
const payload = { x402Version: 2, payload: { authorization: { from: payer } } } as never;

function facilitator(answer: () => Promise<{ isValid: boolean; invalidReason?: string }>): FacilitatorClient {
  return {
    verify: answer,
    settle: async () => ({ success: false, transaction: "", network: "eip155:8453" }) as never,
    getSupported: async () => ({ kinds: [], extensions: [], signers: {} }),
  };
}

const balances = (b: Record<string, bigint>) => async (_asset: Address, owner: Address) => b[owner] ?? 0n;

describe("insufficient funds, said as such", () => {
  it("a simulation that failed for want of the asset names the balance and the price", async () => {
    const f = explainingInsufficientFunds(
      facilitator(async () => ({ isValid: false, invalidReason: "invalid_exact_evm_transaction_simulation_failed" })),
      { asset: USDC, balanceOf: balances({ [payer]: 100_000n }) },
    );
    const r = await f.verify(payload, requirements);
    expect(r.isValid).toBe(false);
    expect(r.invalidReason).toBe(insufficientFundsReason(payer, 100_000n, 250_000n, USDC));
    expect(r.invalidReason).toBe(
      `insufficient_funds: the payer ${payer} holds 0.1 USDC (100000 units) of ${USDC.address}; the price is 0.25 USDC (250000 units)`,
    );
    expect(r.payer).toBe(payer);
  });

  it("a remote facilitator's thrown failure is explained the same way", async () => {
    const f = explainingInsufficientFunds(
      facilitator(async () => {
        throw Object.assign(new Error("invalid_exact_evm_insufficient_balance"), {
          invalidReason: "invalid_exact_evm_insufficient_balance",
        });
      }),
      { asset: USDC, balanceOf: balances({}) },
    );
    expect((await f.verify(payload, requirements)).invalidReason).toMatch(/^insufficient_funds: .* holds 0 USDC/);
  });

  it("keeps the facilitator's reason when the balance covers the price, cannot be read, or the reason is another", async () => {
    const simulationFailed = facilitator(async () => ({
      isValid: false,
      invalidReason: "invalid_exact_evm_transaction_simulation_failed",
    }));
    const enough = explainingInsufficientFunds(simulationFailed, {
      asset: USDC,
      balanceOf: balances({ [payer]: 250_000n }),
    });
    expect((await enough.verify(payload, requirements)).invalidReason).toBe(
      "invalid_exact_evm_transaction_simulation_failed",
    );
    const unread = explainingInsufficientFunds(simulationFailed, {
      asset: USDC,
      balanceOf: async () => {
        throw new Error("rpc down");
      },
    });
    expect((await unread.verify(payload, requirements)).invalidReason).toBe(
      "invalid_exact_evm_transaction_simulation_failed",
    );
    let read = 0;
    const badSignature = explainingInsufficientFunds(
      facilitator(async () => ({ isValid: false, invalidReason: "invalid_exact_evm_payload_signature" })),
      {
        asset: USDC,
        balanceOf: async () => {
          read++;
          return 0n;
        },
      },
    );
    expect((await badSignature.verify(payload, requirements)).invalidReason).toBe(
      "invalid_exact_evm_payload_signature",
    );
    expect(read).toBe(0);
  });

  it("passes a valid verification through untouched", async () => {
    const f = explainingInsufficientFunds(
      facilitator(async () => ({ isValid: true })),
      { asset: USDC, balanceOf: balances({}) },
    );
    expect(await f.verify(payload, requirements)).toEqual({ isValid: true });
  });
});
