/**
 * The proof primitives against what a real node answered (anvil, captured in fixtures/): the
 * header hashes to its block hash, the account and storage proofs hash up to the state root and
 * prove the balance eth_call returned, and any change to the header or to a proof is refused.
 */
import { type Address, type Hex, hexToBigInt, keccak256, toRlp } from "viem";
import { describe, expect, it } from "vitest";
import fixture from "./fixtures/devnet-block-1151.json" with { type: "json" };
import { headerHash, type RpcHeader } from "./header.js";
import { ProofError, proveAccount, proveSlot } from "./merkle-proof.js";

const header = fixture.header as RpcHeader;
const usdc = fixture.usdc as Address;
const slot = fixture.slot as Hex;

describe("block header", () => {
  it("hashes to the block hash the node gave (Prague fields included)", () => {
    expect(headerHash(header)).toBe(header.hash);
  });
  it("another state root is another block", () => {
    expect(headerHash({ ...header, stateRoot: keccak256("0x01") })).not.toBe(header.hash);
  });
  it("a field left out changes the hash (the last fork's field ends the header)", () => {
    expect(headerHash({ ...header, requestsHash: undefined })).not.toBe(header.hash);
  });
});

describe("EIP-1186 proofs", () => {
  it("prove the balance eth_call answered, from the state root", async () => {
    const account = await proveAccount(header.stateRoot, usdc, fixture.proof.accountProof as Hex[]);
    expect(account.storageRoot).toBe(fixture.proof.storageHash);
    const value = await proveSlot(account.storageRoot, usdc, slot, fixture.proof.storageProof[0]!.proof as Hex[]);
    expect(value).toBe(hexToBigInt(fixture.balanceOf as Hex));
  });

  it("refuse an account proof under another state root", async () => {
    await expect(proveAccount(keccak256("0x02"), usdc, fixture.proof.accountProof as Hex[])).rejects.toThrow(
      ProofError,
    );
  });

  it("refuse a storage proof whose leaf holds another value", async () => {
    const nodes = fixture.proof.storageProof[0]!.proof as Hex[];
    const leaf = nodes.at(-1)!;
    // The leaf's value replaced: the leaf no longer hashes to its parent's reference.
    const forged = [...nodes.slice(0, -1), `${leaf.slice(0, -2)}${leaf.slice(-2) === "00" ? "01" : "00"}` as Hex];
    await expect(proveSlot(fixture.proof.storageHash as Hex, usdc, slot, forged)).rejects.toThrow(
      /does not hash to the account's storage root/,
    );
  });

  it("an absent slot is proved zero", async () => {
    expect(await proveSlot(keccak256(toRlp("0x")), usdc, slot, [])).toBe(0n);
  });
});
