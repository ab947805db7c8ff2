/**
 * buildHonestyIndexPayload from hand-made reads: a window's realized APY is the share price's
 * growth between the window's start block and the head, annualised over the blocks' own times
 * (computed here by hand); a vault with no share price at the head, and one on a chain not read,
 * are null with the reason; the pins name the head, each window's bracketing blocks, the peers
 * as configured and the expected APY as read.
 */
import { describe, expect, it } from "vitest";
import type { NetworkConfig } from "../../network/types.js";
import type { BlockPin } from "../../reports/pins.js";
import {
  type BoardVaultReads,
  buildHonestyIndexPayload,
  type HonestyIndexInputs,
  honestyIndexDocument,
  ownBoardVaults,
} from "./honesty-index-board.js";
import { type BoardVault, HonestyIndexSchema } from "./honesty-index-schema.js";

const DAY = 86_400;
const T = 1_790_000_000;
const pin = (number: number, timestamp: number): BlockPin => ({
  number,
  hash: `0x${number.toString(16).padStart(64, "0")}`,
  timestamp,
});
const network = {
  stakingVaults: {
    skUSD: { address: "0x00000000000000000000000000000000000000a1", startBlock: 0 },
    skUSDDeprecated: { address: "0x00000000000000000000000000000000000000a2", startBlock: 0 },
  },
} as unknown as NetworkConfig;
const read = (value: bigint) => ({ value, command: (field: string) => `cast call … # ${field} = ${value}` });
const PEER: BoardVault = {
  name: "peer",
  chain: "ethereum",
  address: "0x0000000000000000000000000000000000000b0b",
  shareDecimals: 18,
  assetDecimals: 6,
  advertised: 0.05,
};

const head = pin(1_000, T);
const windows = [
  { days: 7, target: T - 7 * DAY, block: pin(700, T - 7 * DAY - 5), next: pin(701, T - 7 * DAY + 2) },
  { days: 30, target: T - 30 * DAY, block: pin(300, T - 30 * DAY), next: pin(301, T - 30 * DAY + 7) },
  { days: 90, target: T - 90 * DAY, block: null, next: pin(0, T - 80 * DAY) },
];
const skusd: BoardVaultReads = {
  end: read(1_020_000_000_000_000_000n),
  starts: [read(1_019_000_000_000_000_000n), read(1_015_000_000_000_000_000n), null],
};
const unread: BoardVaultReads = { end: null, starts: [read(1n), read(1n), null] };

function inputs(): HonestyIndexInputs {
  return {
    now: T + 30,
    network: { chainId: 8453, documentSha256: `0x${"cd".repeat(32)}` },
    own: ownBoardVaults(network),
    peers: [PEER],
    expectedAPY: 0.0412345678,
    chains: { base: { head, windows }, ethereum: null },
    reads: [skusd, unread, skusd],
  };
}

describe("buildHonestyIndexPayload", () => {
  it("annualises each window's share price growth over the blocks' own times", () => {
    const [sk] = buildHonestyIndexPayload(inputs()).vaults;
    const by = (start: number, from: number) => (1.02 / start - 1) * (365 / ((T - from) / DAY));
    expect(sk!.realized["7d"]).toEqual({
      realizedAPY: Math.round(by(1.019, T - 7 * DAY - 5) * 1e8) / 1e8,
      fromBlock: 700,
      toBlock: 1_000,
      note: undefined,
    });
    expect(sk!.realized["30d"].realizedAPY).toBeCloseTo(by(1.015, T - 30 * DAY), 8);
    expect(sk!.realized["90d"]).toMatchObject({ realizedAPY: null, fromBlock: null, toBlock: 1_000 });
    expect(sk!.realized["90d"].note).toMatch(/younger than the window/);
    expect(sk!.advertisedAPY).toBe(0.04123457);
    expect(sk!.advertisedSource).toBe("/api/apy expectedAPY");
    expect(sk!.verify).toEqual([
      "cast call … # skUSD convertToAssets(1 share) at block 1000 = 1020000000000000000",
      "cast call … # skUSD convertToAssets(1 share) at block 700 = 1019000000000000000",
      "cast call … # skUSD convertToAssets(1 share) at block 300 = 1015000000000000000",
    ]);
  });

  it("leaves a vault unread at the head, or on a chain not read, null: never a window without its end", () => {
    const [, superseded, peer] = buildHonestyIndexPayload(inputs()).vaults;
    for (const row of [superseded!, peer!]) {
      expect(Object.values(row.realized).map((w) => [w.realizedAPY, w.toBlock])).toEqual([
        [null, null],
        [null, null],
        [null, null],
      ]);
    }
    expect(superseded!.realized["7d"].fromBlock).toBe(700);
    expect(superseded!).toMatchObject({ advertisedAPY: null, advertisedSource: null });
    expect(superseded!.verify).toEqual([
      "cast call … # skUSD (superseded) convertToAssets(1 share) at block 700 = 1",
      "cast call … # skUSD (superseded) convertToAssets(1 share) at block 300 = 1",
    ]);
    expect(peer!).toMatchObject({ chain: "ethereum", advertisedAPY: 0.05, advertisedSource: "configured", verify: [] });
    expect(peer!.realized["7d"].fromBlock).toBeNull();
  });

  it("pins the head, every window's bracketing blocks, the peers and the expected APY, and publishes in the schema", () => {
    const payload = buildHonestyIndexPayload(inputs());
    expect(payload.pins).toEqual({
      report: "honesty-index",
      network: { chainId: 8453, documentSha256: `0x${"cd".repeat(32)}` },
      block: head,
      venue: null,
      ethereumBlock: null,
      windows: windows.map((w) => ({ chain: "base", ...w })),
      peers: [PEER],
      expectedAPY: 0.0412345678,
    });
    const doc = JSON.parse(JSON.stringify(honestyIndexDocument(payload, null)));
    expect(HonestyIndexSchema.safeParse(doc).error?.issues).toBeUndefined();
    expect(doc.updatedAt).toBe(new Date((T + 30) * 1000).toISOString());
  });
});
