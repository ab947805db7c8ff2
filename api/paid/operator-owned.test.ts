import { readFileSync } from "node:fs";
import { operatorFileAddresses, readServiceEnv } from "@kusd/config";
import { BASE_OPERATOR_REGISTRY_FILE, selectNetwork } from "@kusd/config/node";
import { describe, expect, it } from "vitest";
import { operatorOwnedAddresses } from "./operator-owned.js";

// The operator's registry file as committed (test:fidelity checks it equals ../shared's copy).
const registry = JSON.parse(readFileSync(BASE_OPERATOR_REGISTRY_FILE, "utf8"));
const env = readServiceEnv({
  KUSD_NETWORK: "base",
  PONDER_RPC_URL_8453: "https://base.example",
  KUSD_READ_RPC_URL_1: "https://eth.example",
});

describe("operatorOwnedAddresses on Base", () => {
  it("refuses instant reads of every address in the operator's registry file, and not of USDC", () => {
    const refused = operatorOwnedAddresses(selectNetwork(env));
    for (const { ref, address } of operatorFileAddresses(registry))
      expect(refused.has(address.toLowerCase()), ref).toBe(true);
    expect(refused.has(registry.externalTokens.USDC.toLowerCase())).toBe(false);
  });
});
