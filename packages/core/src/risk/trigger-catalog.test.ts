import { parseAbi } from "viem";
import { describe, expect, it } from "vitest";
import { configurationGetters } from "./trigger-catalog.js";

const abi = parseAbi([
  "function paused() view returns (bool)",
  "function pause()",
  "function unpause()",
  "function mintingEnabled() view returns (bool)",
  "function setMintingEnabled(bool)",
  "function stableCaps(address) view returns (uint256)",
  "function setStableCap(address stable, uint256 cap)",
  "function whitelisted(address) view returns (bool)",
  "function setWhitelisted(address account, bool allowed)",
  "function flashFeeBps() view returns (uint256)",
  "function setFlashFee(uint256)",
  "function currentExposure(address) view returns (uint256)",
  "function MAX_ORACLE_DELAY_BOUND() view returns (uint256)",
  "function MINTER_ROLE() view returns (bytes32)",
  "function totalSupply() view returns (uint256)",
  "function tieredFees(address,uint256) view returns (uint256,uint256)",
  "function getMinDelay() view returns (uint256)",
  "function updateDelay(uint256)",
]);

describe("configurationGetters", () => {
  it("keeps what the contract sets, and constant thresholds; drops state figures, roles, account-keyed and multi-argument getters", () => {
    expect(configurationGetters(abi).map((g) => [g.name, g.kind, g.arg, g.setBy])).toEqual([
      ["flashFeeBps", "threshold", "none", "setFlashFee"],
      ["getMinDelay", "threshold", "none", "updateDelay"],
      ["MAX_ORACLE_DELAY_BOUND", "constant", "none", null],
      ["mintingEnabled", "flag", "none", "setMintingEnabled"],
      ["paused", "flag", "none", "pause"],
      ["stableCaps", "threshold", "stable", "setStableCap"],
    ]);
    expect(configurationGetters(abi).find((g) => g.name === "stableCaps")?.signature).toBe(
      "stableCaps(address)(uint256)",
    );
  });
});
