import { describe, expect, it } from "vitest";
import { abiExportName, staleArtifactFiles } from "../../devnet/build.js";

describe("compiled artifacts", () => {
  it("devnet/artifacts and abis/ match a fresh build of devnet/contracts", () => {
    // Fails when a .sol file changed without `npm run build:contracts`.
    expect(staleArtifactFiles()).toEqual([]);
    // solc-js compiles every contract on this thread: 22-38 s alone on two cores, past 60 s
    // beside the rest of the suite.
  }, 180_000);

  it("names ABI exports after the contract", () => {
    expect(abiExportName("KUSDPSM")).toBe("kusdpsmAbi");
    expect(abiExportName("KerneVault")).toBe("kerneVaultAbi");
    expect(abiExportName("EVKVault")).toBe("evkVaultAbi");
    expect(abiExportName("WETH9")).toBe("weth9Abi");
    expect(abiExportName("FiatTokenV2")).toBe("fiatTokenV2Abi");
  });
});
