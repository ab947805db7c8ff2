import { describe, expect, it } from "vitest";
import { AttestationSchema, buildAttestation } from "./attestation.js";

describe("attestation", () => {
  it("the chain length at report time, the indexed head and the two block commands", () => {
    const a = buildAttestation({
      block: 1000,
      failedReads: ["x"],
      notDeployed: [
        {
          to: "0x0000000000000000000000000000000000000009",
          read: "balanceOf(address)(uint256)",
          reason: "not_deployed",
        },
      ],
      rpcChainLength: 1002,
      indexedHead: { blockNumber: 1001n },
      canonicalEndpoint: "http://site/api/por",
      commandRpcUrl: "http://rpc",
    });
    expect(AttestationSchema.parse(a)).toEqual(a);
    expect(a).toEqual({
      kind: "unsigned-report",
      rpcChainLength: 1002,
      indexedHeadBlock: 1001,
      canonicalEndpoint: "http://site/api/por",
      signedEquivalent: "/api/por/signed",
      failedReads: ["x"],
      notDeployed: [
        {
          to: "0x0000000000000000000000000000000000000009",
          read: "balanceOf(address)(uint256)",
          reason: "not_deployed",
        },
      ],
      verifyVia: [
        "cast block-number --rpc-url http://rpc  # attestation.rpcChainLength (at report time)",
        "cast block 1000 --rpc-url http://rpc  # blockNumber and timestamp",
      ],
    });
  });

  it("an unreadable chain length is null", () => {
    expect(
      buildAttestation({
        block: 1,
        failedReads: [],
        notDeployed: [],
        rpcChainLength: null,
        indexedHead: { blockNumber: 1n },
        canonicalEndpoint: "e",
        commandRpcUrl: "r",
      }).rpcChainLength,
    ).toBeNull();
  });
});
