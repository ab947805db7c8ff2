import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { networkOf } from "./network.js";

const read = (path: string) => JSON.parse(readFileSync(new URL(path, import.meta.url), "utf8"));

describe("the Base network document the package ships", () => {
  it("is the operator's deployment file with our kusd section (packages/config/networks/base/), as the service reads them", () => {
    const shipped = read("../../networks/base.json");
    const operator = read("../../../config/networks/base/operator-deployments-8453.json");
    const kusd = read("../../../config/networks/base/kusd.json");
    expect(shipped).toEqual({ ...operator, kusd });
  });

  it("names the contracts and accounts the figures read", () => {
    const n = networkOf(read("../../networks/base.json"), "https://base.example");
    expect(n.name).toBe("base");
    expect(n.kUSD.address).toMatch(/^0x[0-9a-fA-F]{40}$/);
    expect(n.psms.psmMint.address).not.toBe(n.psms.psmRedeemReserve.address);
  });
});
