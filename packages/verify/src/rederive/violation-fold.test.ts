import { indexRegistry, type RegistryVersionConfig } from "@kusd/core";
import type { Address, Hex } from "viem";
import { describe, expect, it } from "vitest";
import { foldViolations, type RegistryEvent } from "./violation-fold.js";

const a = (n: number) => `0x${n.toString(16).padStart(40, "0")}` as Address;
const tx = (n: number) => `0x${n.toString(16).padStart(64, "0")}` as Hex;
const [PSM, SAFE, VENUE, USER, LENDER, LATE] = [a(1), a(2), a(3), a(4), a(5), a(6)];
const [USDC, KUSD] = [a(100), a(101)];

const version = (v: number, issuedAt: number, listed: Address[]) =>
  ({
    registry_version: v,
    issued_at: issuedAt,
    entries: listed.map((address) => ({ address })),
    disclosed_venue_deposits: [{ address: VENUE }],
  }) as unknown as RegistryVersionConfig;

const context = {
  index: indexRegistry([version(1, 100, [PSM, SAFE]), version(2, 200, [PSM, SAFE, LATE])]),
  listed: new Set([PSM, SAFE, VENUE, LATE].map((x) => x.toLowerCase())),
  usdc: USDC,
  kUSD: KUSD,
  tokenSymbol: (t: Address) => (t === USDC ? "USDC" : "kUSD"),
  // Block 10 is before version 2, block 20 after.
  registryTime: (b: bigint) => (b >= 20n ? 200 : 100),
};

const transfer = (
  block: number,
  logIndex: number,
  t: number,
  from: Address,
  to: Address,
  amount: bigint,
  token = USDC,
) =>
  ({ kind: "transfer", token, from, to, amount, txHash: tx(t), blockNumber: BigInt(block), logIndex }) as RegistryEvent;

describe("foldViolations", () => {
  it("keeps a transfer out of a listed account unless a later event of its transaction explains it", () => {
    const events: RegistryEvent[] = [
      // A redemption: the PSM pays USDC, then its Swap (999 kUSD in, fee 0) explains the payout.
      transfer(10, 1, 1, PSM, USER, 999n),
      {
        kind: "swap",
        psm: PSM,
        user: USER,
        fromToken: KUSD,
        amount: 999n * 10n ** 12n,
        fee: 0n,
        txHash: tx(1),
        blockNumber: 10n,
        logIndex: 2,
      },
      // To a disclosed venue: no violation. To an unlisted account: a violation.
      transfer(10, 3, 2, SAFE, VENUE, 5n),
      transfer(11, 0, 3, SAFE, USER, 7n),
      // A flash loan out and back in the same transaction.
      transfer(12, 0, 4, SAFE, LENDER, 9n),
      transfer(12, 1, 4, LENDER, SAFE, 9n),
      // LATE is listed only from version 2: its transfer at block 10 is inbound, at 20 a violation.
      transfer(10, 5, 5, LATE, USER, 1n),
      transfer(20, 0, 6, LATE, USER, 2n),
      // Twice the same identity in one transaction: kept once, at its first transfer.
      transfer(21, 0, 7, SAFE, USER, 3n, KUSD),
      transfer(21, 1, 7, SAFE, USER, 3n, KUSD),
    ];
    const folded = foldViolations([...events].reverse(), context);
    expect(folded.map((v) => [Number(v.blockNumber), v.logIndex, v.amount, v.registryVersion, v.tokenSymbol])).toEqual([
      [11, 0, 7n, 1, "USDC"],
      [20, 0, 2n, 2, "USDC"],
      [21, 0, 3n, 2, "kUSD"],
    ]);
    expect(folded[0]!.id).toBe(`${tx(3)}:${USDC}:${SAFE}:${USER}:7`.toLowerCase());
  });

  it("a vault withdrawal explains the asset paid to its receiver", () => {
    const folded = foldViolations(
      [
        transfer(10, 0, 1, SAFE, USER, 50n, KUSD),
        {
          kind: "withdrawal",
          vault: SAFE,
          asset: KUSD,
          receiver: USER,
          assets: 50n,
          txHash: tx(1),
          blockNumber: 10n,
          logIndex: 1,
        },
      ],
      context,
    );
    expect(folded).toEqual([]);
  });
});
