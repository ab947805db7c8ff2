import { describe, expect, it } from "vitest";
import { EnvironmentError, readServiceEnv } from "./env.js";

describe("readServiceEnv", () => {
  it("types what is set, treats an empty string as unset, and defaults the network to devnet", () => {
    const e = readServiceEnv({
      PONDER_RPC_URL_8453: "https://a.example, https://b.example",
      KUSD_POLLING_INTERVAL_MS: "500",
      KUSD_ADMIN_TOKEN: "",
      KUSD_REGISTRY_SOURCE: "a.json,https://x.example/api/por/accounts",
    });
    expect(e.KUSD_NETWORK).toBe("devnet");
    expect(e.PONDER_RPC_URL_8453).toEqual(["https://a.example", "https://b.example"]);
    expect(e.KUSD_POLLING_INTERVAL_MS).toBe(500);
    expect(e.KUSD_ADMIN_TOKEN).toBeUndefined();
    expect(e.KUSD_REGISTRY_SOURCE).toEqual(["a.json", "https://x.example/api/por/accounts"]);
  });

  it("names every bad variable with what is wrong with it, in one error", () => {
    let error: unknown;
    try {
      readServiceEnv({
        KUSD_NETWORK: "sepolia",
        KUSD_ETH_GET_LOGS_BLOCK_RANGE: "ten",
        KUSD_PAYMENT_RECIPIENT: "0x1234",
        KUSD_OPERATOR_PRIVATE_KEY: "0xabc",
        KUSD_VENUE_URL: "ftp://venue",
      });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(EnvironmentError);
    const e = error as EnvironmentError;
    expect(e.code).toBe("invalid_environment");
    expect(e.details.variables.map((v) => v.name).sort()).toEqual([
      "KUSD_ETH_GET_LOGS_BLOCK_RANGE",
      "KUSD_NETWORK",
      "KUSD_OPERATOR_PRIVATE_KEY",
      "KUSD_PAYMENT_RECIPIENT",
      "KUSD_VENUE_URL",
    ]);
    expect(e.message).toContain("KUSD_PAYMENT_RECIPIENT must be an address");
    expect(e.message).not.toContain("0xabc"); // a key's value never appears in an error
  });
});
