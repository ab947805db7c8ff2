import { describe, expect, it } from "vitest";
import { PinnedReader } from "./pinned-reader.js";

const r = new PinnedReader({} as never, 7n, "https://mainnet.base.org");
const supply = { to: "0x0000000000000000000000000000000000000001", signature: "totalSupply()(uint256)" } as const;

describe("PinnedReader commands", () => {
  it("a read's command carries the field and the raw value it returns", () => {
    expect(r.command(supply, "kusdSupplyWei", 5n, 18)).toBe(
      "cast call 0x0000000000000000000000000000000000000001 'totalSupply()(uint256)' --block 7 --rpc-url https://mainnet.base.org  # kusdSupplyWei = 5 (18 decimals)",
    );
  });

  it("a re-check command names the field only: the figure came from indexed rows, not from this read", () => {
    expect(r.recheckCommand(supply, "kusdSupplyWei")).toBe(
      "cast call 0x0000000000000000000000000000000000000001 'totalSupply()(uint256)' --block 7 --rpc-url https://mainnet.base.org  # kusdSupplyWei",
    );
  });
});
