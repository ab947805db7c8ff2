/** The committed getter catalog (packages/verify/src/read-plan/source-getters.json) is what the operator's source names today. */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { CATALOG_FILE, extractCatalog, gettersNamedIn } from "./source-getters.js";

describe("packages/verify/src/read-plan/source-getters.json", () => {
  it("equals a fresh extraction from the operator's audited source (run npm run gen:source-getters when it moves)", () => {
    expect(JSON.parse(readFileSync(CATALOG_FILE, "utf8"))).toEqual(JSON.parse(JSON.stringify(extractCatalog())));
  });

  it("reads public variables, address-keyed mappings and parameterless views, and not comments", () => {
    const sol = `
      bytes32 public constant BURNER_ROLE = keccak256("BURNER_ROLE");
      bool public depositsEnabled = true;
      IERC20 public immutable kUSD;
      mapping(address => uint256) public stableCaps;
      mapping(address => WithdrawalRequest[]) public withdrawalRequests;
      // bool public commentedOut;
      function lockedYield() public view returns (uint256) { return 0; }
      function getFee(address stable, uint256 amount) public view returns (uint256) {}
      function pause() external {}`;
    expect(gettersNamedIn(sol)).toEqual([
      "BURNER_ROLE()",
      "depositsEnabled()",
      "kUSD()",
      "lockedYield()",
      "stableCaps(address)",
    ]);
  });
});
