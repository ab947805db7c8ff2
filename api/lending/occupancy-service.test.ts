/** The lending market a network configures: both vaults, from the later deployment. Reads against a chain: test/e2e/lending-occupancy-e2e.test.ts. */

import type { NetworkConfig } from "@kusd/core";
import type { Address } from "viem";
import { describe, expect, it } from "vitest";
import { LendingMarketNotConfiguredError, lendingMarketOf } from "./occupancy-service.js";

const USDC_VAULT = "0x0000000000000000000000000000000000000001" as Address;
const ESCROW = "0x0000000000000000000000000000000000000002" as Address;

const MARKET = {
  lendingUSDC: { address: USDC_VAULT, startBlock: 10 },
  lendingEscrowKUSD: { address: ESCROW, startBlock: 9 },
};
const networkWith = (lending: NetworkConfig["lending"]) => ({ name: "base", lending }) as unknown as NetworkConfig;

describe("lendingMarketOf", () => {
  it("needs both vaults, and starts at the later deployment", () => {
    expect(() => lendingMarketOf(networkWith({ lendingUSDC: MARKET.lendingUSDC }))).toThrow(
      LendingMarketNotConfiguredError,
    );
    expect(lendingMarketOf(networkWith(MARKET))).toEqual({
      lendingUSDC: USDC_VAULT,
      lendingEscrowKUSD: ESCROW,
      startBlock: 10n,
    });
  });

  it("names what is missing, as a 404", () => {
    const error = (() => {
      try {
        lendingMarketOf(networkWith({ lendingEscrowKUSD: MARKET.lendingEscrowKUSD }));
      } catch (e) {
        return e as LendingMarketNotConfiguredError;
      }
    })();
    expect(error).toBeInstanceOf(LendingMarketNotConfiguredError);
    expect(error).toMatchObject({
      status: 404,
      code: "lending_market_not_configured",
      details: { network: "base", missing: ["lendingUSDC"] },
    });
  });
});
