/**
 * HonestyIndexSchema, the published shape of GET /api/honesty-index. The board's assembler is
 * tested in honesty-index-board.test.ts; here the document is put together from hand-made rows
 * and pins, signed with a throwaway key and unsigned, and checked against the schema, including
 * a row younger than its windows.
 */
import { privateKeyToAccount } from "viem/accounts";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { signPayload } from "../../attestation/sign.js";
import { HONESTY_METHOD, honestyIndexDocument } from "./honesty-index-board.js";
import {
  type HonestyIndex,
  type HonestyIndexPayload,
  type HonestyIndexPins,
  type HonestyIndexRow,
  HonestyIndexSchema,
} from "./honesty-index-schema.js";

const NOW = 1_790_281_600;
const KEY = privateKeyToAccount("0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d");
const NO_START = "no share price that far back (the vault is younger than the window)";
const cmd = (block: number) =>
  `cast call 0x00000000000000000000000000000000000000a1 'convertToAssets(uint256)(uint256)' 1000000000000000000000000 --block ${block} --rpc-url http://public.base  # skUSD convertToAssets(1 share) at block ${block} = 1 (18 decimals)`;

const ROWS: HonestyIndexRow[] = [
  {
    name: "skUSD",
    chain: "base",
    address: "0x00000000000000000000000000000000000000a1",
    shareDecimals: 24,
    realized: {
      "7d": { realizedAPY: 0.03609573, fromBlock: 112, toBlock: 119, note: undefined },
      "30d": { realizedAPY: 0.03617802, fromBlock: 89, toBlock: 119, note: undefined },
      "90d": { realizedAPY: 0.03639446, fromBlock: 29, toBlock: 119, note: undefined },
    },
    advertisedAPY: 0.041,
    advertisedSource: "/api/apy expectedAPY",
    verify: [cmd(119), cmd(112), cmd(89), cmd(29)],
  },
  {
    name: "a young peer",
    chain: "ethereum",
    address: "0x0000000000000000000000000000000000000b0b",
    shareDecimals: 18,
    realized: {
      "7d": { realizedAPY: 0.05, fromBlock: 112, toBlock: 119, note: undefined },
      "30d": { realizedAPY: null, fromBlock: null, toBlock: 119, note: NO_START },
      "90d": { realizedAPY: null, fromBlock: null, toBlock: 119, note: NO_START },
    },
    advertisedAPY: 0.05,
    advertisedSource: "configured",
    verify: [cmd(119), cmd(112)],
  },
  {
    name: "unreadable, advertises nothing",
    chain: "base",
    address: "0x000000000000000000000000000000000000dead",
    shareDecimals: 24,
    realized: {
      "7d": { realizedAPY: null, fromBlock: null, toBlock: null, note: NO_START },
      "30d": { realizedAPY: null, fromBlock: null, toBlock: null, note: NO_START },
      "90d": { realizedAPY: null, fromBlock: null, toBlock: null, note: NO_START },
    },
    advertisedAPY: null,
    advertisedSource: null,
    verify: [],
  },
];

const pin = (number: number) => ({
  number,
  hash: `0x${number.toString(16).padStart(64, "0")}` as const,
  timestamp: number,
});
const PINS: HonestyIndexPins = {
  report: "honesty-index",
  network: { chainId: 8453, documentSha256: `0x${"ab".repeat(32)}` },
  block: pin(119),
  venue: null,
  ethereumBlock: pin(119),
  windows: [7, 30, 90].flatMap((days) =>
    (["base", "ethereum"] as const).map((chain) => ({
      chain,
      days,
      target: NOW - days * 86_400,
      block: days === 7 ? pin(112) : null,
      next: pin(113),
    })),
  ),
  peers: [
    {
      name: "a young peer",
      chain: "ethereum",
      address: "0x0000000000000000000000000000000000000b0b",
      shareDecimals: 18,
      assetDecimals: 6,
      advertised: 0.05,
    },
  ],
  expectedAPY: 0.041,
};

/** The document as loadHonestyIndex assembles it: the signed payload (rows and pins), then the signature fields. */
async function board(rows: HonestyIndexRow[], signed: boolean): Promise<HonestyIndex> {
  const payload: HonestyIndexPayload = {
    kind: "realized-yield-board",
    timestamp: NOW,
    method: HONESTY_METHOD,
    vaults: rows,
    pins: PINS,
  };
  const signature = signed ? await signPayload(KEY, JSON.parse(JSON.stringify(payload)) as typeof payload) : null;
  return honestyIndexDocument(payload, signature);
}

/** The document as the route sends it: through JSON (a window with a start has no note key). */
const json = (doc: HonestyIndex) => JSON.parse(JSON.stringify(doc));

describe("HonestyIndexSchema", () => {
  it("accepts the board signed and unsigned, as sent and as built", async () => {
    for (const signed of [true, false]) {
      const doc = await board(ROWS, signed);
      const parsed = HonestyIndexSchema.safeParse(json(doc));
      expect(parsed.error?.issues).toBeUndefined();
      expect(parsed.data).toEqual(json(doc));
      expect(HonestyIndexSchema.safeParse(doc).success).toBe(true);
    }
    expect(json(await board(ROWS, true)).signer).toBe(KEY.address);
    expect(json(await board([], false)).vaults).toEqual([]);
    expect(HonestyIndexSchema.safeParse(json(await board([], false))).success).toBe(true);
  });

  it("rejects a board that gains or loses a field, at the top, in a row or in a window", async () => {
    const doc = json(await board(ROWS, true));
    expect(HonestyIndexSchema.safeParse({ ...doc, extra: true }).success).toBe(false);
    const { signer: _, ...unsignedKey } = doc;
    expect(HonestyIndexSchema.safeParse(unsignedKey).success).toBe(false);
    const { pins: ____, ...unpinned } = doc;
    expect(HonestyIndexSchema.safeParse(unpinned).success).toBe(false);
    const { next: _____, ...bareWindow } = doc.pins.windows[0];
    expect(
      HonestyIndexSchema.safeParse({ ...doc, pins: { ...doc.pins, windows: [bareWindow] } }).success,
      "a window pin without the block after it",
    ).toBe(false);
    const [row, ...rest] = doc.vaults;
    const { verify: __, ...rowWithoutVerify } = row;
    expect(HonestyIndexSchema.safeParse({ ...doc, vaults: [rowWithoutVerify, ...rest] }).success).toBe(false);
    expect(HonestyIndexSchema.safeParse({ ...doc, vaults: [{ ...row, assetDecimals: 18 }, ...rest] }).success).toBe(
      false,
    );
    expect(
      HonestyIndexSchema.safeParse({
        ...doc,
        vaults: [{ ...row, realized: { ...row.realized, "180d": row.realized["7d"] } }, ...rest],
      }).success,
    ).toBe(false);
    const { "90d": ___, ...twoWindows } = row.realized;
    expect(HonestyIndexSchema.safeParse({ ...doc, vaults: [{ ...row, realized: twoWindows }, ...rest] }).success).toBe(
      false,
    );
    expect(
      HonestyIndexSchema.safeParse({
        ...doc,
        vaults: [{ ...row, realized: { ...row.realized, "7d": { ...row.realized["7d"], apy: 1 } } }, ...rest],
      }).success,
    ).toBe(false);
  });

  it("keeps the closed sets closed: chain and advertisedSource", async () => {
    const doc = json(await board(ROWS, false));
    const [row, ...rest] = doc.vaults;
    expect(HonestyIndexSchema.safeParse({ ...doc, vaults: [{ ...row, chain: "arbitrum" }, ...rest] }).success).toBe(
      false,
    );
    expect(
      HonestyIndexSchema.safeParse({ ...doc, vaults: [{ ...row, advertisedSource: "twitter" }, ...rest] }).success,
    ).toBe(false);
    expect(HonestyIndexSchema.safeParse({ ...doc, kind: "board" }).success).toBe(false);
  });

  it("converts to JSON Schema (the OpenAPI document's entry), with the board's keys in order", async () => {
    const schema = z.toJSONSchema(HonestyIndexSchema) as { required: string[]; additionalProperties: boolean };
    expect(schema.additionalProperties).toBe(false);
    expect(schema.required).toEqual(Object.keys(json(await board(ROWS, true))));
  });
});
