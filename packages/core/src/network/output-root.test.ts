import { type Hex, hexToBytes, keccak256 } from "viem";
import { describe, expect, it } from "vitest";
import { outputRootV0 } from "./output-root.js";

const stateRoot: Hex = "0x1111111111111111111111111111111111111111111111111111111111111111";
const messagePasserStorageRoot: Hex = "0x56e81f171bcc55a6ff8345e692c0f86e5b48e01b996cadc001622fb5e363b421";
const blockHash: Hex = "0xabababababababababababababababababababababababababababababababab";

describe("outputRootV0", () => {
  it("is keccak256 of four 32-byte words: version 0, state root, message-passer storage root, block hash", () => {
    // The 128-byte preimage written out word by word, hashed as raw bytes.
    const preimage = `0x${"00".repeat(32)}${stateRoot.slice(2)}${messagePasserStorageRoot.slice(2)}${blockHash.slice(2)}`;
    expect(hexToBytes(preimage as Hex)).toHaveLength(128);
    expect(outputRootV0({ stateRoot, messagePasserStorageRoot, blockHash })).toBe(keccak256(preimage as Hex));
  });

  it("commits to each field in its place: swapping two of them changes the root", () => {
    const root = outputRootV0({ stateRoot, messagePasserStorageRoot, blockHash });
    expect(
      outputRootV0({ stateRoot: messagePasserStorageRoot, messagePasserStorageRoot: stateRoot, blockHash }),
    ).not.toBe(root);
    expect(
      outputRootV0({ stateRoot, messagePasserStorageRoot: blockHash, blockHash: messagePasserStorageRoot }),
    ).not.toBe(root);
  });
});
