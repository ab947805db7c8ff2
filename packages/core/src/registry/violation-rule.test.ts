/** Spec 2.6 rules 2 and 3 as pure functions, on a hand-made registry timeline. */

import { type Address, zeroAddress } from "viem";
import { describe, expect, it } from "vitest";
import type { RegistryVersionConfig } from "../network/registry-config.js";
import { candidateId, classifyTransfer, explains, indexRegistry } from "./violation-rule.js";

const A = (n: number) => `0x${n.toString(16).padStart(40, "0")}` as Address;
const OPERATOR = A(1);
const PSM = A(2);
const TREASURY = A(3);
const VENUE = A(9);
const STRANGER = A(99);
const entry = (address: Address, kind: "eoa" | "contract" = "contract") => ({
  address,
  kind,
  chain: "base" as const,
  role: "x",
  venue: null,
  label: "x",
  holds_protocol_funds: true,
  backs_kusd: false,
  ref: "x",
});
const versions: RegistryVersionConfig[] = [
  {
    registry_version: 1,
    issued_at: 1_000,
    as_of: "d1",
    entries: [entry(OPERATOR, "eoa"), entry(PSM)],
    disclosed_venue_deposits: [],
  },
  {
    registry_version: 2,
    issued_at: 2_000,
    as_of: "d2",
    entries: [entry(OPERATOR, "eoa"), entry(PSM), entry(TREASURY)],
    disclosed_venue_deposits: [
      {
        address: VENUE,
        symbol: "V",
        venue: "v",
        chain: "base",
        asset: "USDC",
        what_it_is: "",
        receives_from: [OPERATOR],
        public_per_address_read: "",
        disclosed_at: "d2",
      },
    ],
  },
];
const idx = indexRegistry(versions);

describe("classifyTransfer", () => {
  it("nothing is listed before the first version is issued", () => {
    expect(classifyTransfer(idx, { from: OPERATOR, to: STRANGER, at: 999 })).toEqual({
      class: "inbound",
      version: null,
    });
  });
  it("movement among accounts listed in the version in force is internal; a burn is a burn", () => {
    expect(classifyTransfer(idx, { from: OPERATOR, to: PSM, at: 1_500 }).class).toBe("internal");
    expect(classifyTransfer(idx, { from: PSM, to: zeroAddress, at: 1_500 }).class).toBe("burn");
  });
  it("listing follows issued_at: the treasury counts as listed only from version 2", () => {
    expect(classifyTransfer(idx, { from: OPERATOR, to: TREASURY, at: 1_999 })).toEqual({
      class: "violation",
      version: 1,
    });
    expect(classifyTransfer(idx, { from: OPERATOR, to: TREASURY, at: 2_000 })).toEqual({
      class: "internal",
      version: 2,
    });
  });
  it("a deposit into a disclosed venue is allowed only after the disclosure's issued_at", () => {
    expect(classifyTransfer(idx, { from: OPERATOR, to: VENUE, at: 1_999 }).class).toBe("violation");
    expect(classifyTransfer(idx, { from: OPERATOR, to: VENUE, at: 2_001 }).class).toBe("disclosed_venue_deposit");
  });
  it("a transfer to an unlisted address is a violation candidate; from an unlisted sender it is inbound", () => {
    expect(classifyTransfer(idx, { from: PSM, to: STRANGER, at: 2_500 }).class).toBe("violation");
    expect(classifyTransfer(idx, { from: STRANGER, to: PSM, at: 2_500 }).class).toBe("inbound");
  });
});

describe("explains: same-transaction events that clear a candidate", () => {
  const tx = "0xabc";
  it("a redemption Swap names its payout: (kUSD in − fee) / 1e12 USDC from the PSM to the redeemer", () => {
    const payout = candidateId({ txHash: tx, token: A(50), from: PSM, to: STRANGER, amount: 9_990_000n });
    expect(
      explains.redemption({ txHash: tx, usdc: A(50), psm: PSM, user: STRANGER, kusdIn: 10n ** 19n, fee: 10n ** 16n }),
    ).toBe(payout);
  });
  it("an ERC-4626 Withdraw names its asset transfer; a return leg names its loan", () => {
    expect(explains.withdrawal({ txHash: tx, asset: A(51), vault: PSM, receiver: STRANGER, assets: 5n })).toBe(
      candidateId({ txHash: tx, token: A(51), from: PSM, to: STRANGER, amount: 5n }),
    );
    expect(explains.returnLeg({ txHash: tx, token: A(50), from: STRANGER, to: PSM, amount: 7n })).toBe(
      candidateId({ txHash: tx, token: A(50), from: PSM, to: STRANGER, amount: 7n }),
    );
  });
  it("ids ignore address case, so checksummed and lower-case logs meet", () => {
    expect(
      candidateId({
        txHash: tx,
        token: "0xAbC0000000000000000000000000000000000001",
        from: PSM,
        to: STRANGER,
        amount: 1n,
      }),
    ).toBe(
      candidateId({
        txHash: tx,
        token: "0xabc0000000000000000000000000000000000001",
        from: PSM,
        to: STRANGER,
        amount: 1n,
      }),
    );
  });
});
