import { concat, type Hex, keccak256, pad, toHex } from "viem";
import { describe, expect, it } from "vitest";
import {
  BASE_PROOF_SYSTEM,
  encodeGameExtraData,
  GAME_STATUS,
  gameCloneCode,
  gameStatusName,
  gameUuid,
  parseGameClone,
  unpackGameId,
} from "./dispute-games.js";

const implementation = "0xeE303bA054c5F1E14A8EF87f1C7E285af45A1ba2";
const creator = "0x642229f238fb9dE03374Be34B0eD8D9De80752c5";
const parent = "0x909f6cf47ed12f010A796527f562bFc26C7F4E72";
const roots = Array.from({ length: 20 }, (_, i) => keccak256(toHex(`root ${i}`)));
const rootClaim = roots[19]!;
const l1Head = keccak256(toHex("l1 parent block"));
const l2Block = 46_303_560n;

describe("a game's extra data", () => {
  it("is the L2 block as 32 bytes, the parent as 20, then every intermediate root", () => {
    const extra = encodeGameExtraData({ l2BlockNumber: l2Block, parent, intermediateRoots: roots });
    expect(extra).toBe(concat([pad(toHex(l2Block), { size: 32 }), parent.toLowerCase() as Hex, ...roots]));
    // 0x34 + 0x20 per root, as AggregateVerifier.extraData() reads it for 600 / 30 = 20 roots.
    expect((extra.length - 2) / 2).toBe(
      0x34 + 0x20 * (BASE_PROOF_SYSTEM.blockInterval / BASE_PROOF_SYSTEM.intermediateBlockInterval),
    );
  });

  it("keys the game in the factory with its type and root claim", () => {
    const extra = encodeGameExtraData({ l2BlockNumber: l2Block, parent, intermediateRoots: roots });
    // abi.encode(uint32, bytes32, bytes): type, claim, offset 0x60, length, data padded to 32 bytes.
    const length = (extra.length - 2) / 2;
    const padded = `${extra.slice(2)}${"00".repeat((32 - (length % 32)) % 32)}`;
    const encoded =
      `0x${pad(toHex(621), { size: 32 }).slice(2)}${rootClaim.slice(2)}${pad(toHex(0x60), { size: 32 }).slice(2)}${pad(toHex(length), { size: 32 }).slice(2)}${padded}` as Hex;
    expect(gameUuid(621, rootClaim, extra)).toBe(keccak256(encoded));
  });
});

describe("a game clone's code", () => {
  const extra = encodeGameExtraData({ l2BlockNumber: l2Block, parent, intermediateRoots: roots });
  const args = concat([creator.toLowerCase() as Hex, rootClaim, l1Head, extra]);
  const code = gameCloneCode(implementation, args);

  it("is the 98-byte proxy, the arguments, then their length + 2 in 2 bytes", () => {
    const n = (args.length - 2) / 2 + 2;
    // The proxy written out opcode by opcode (Solady LibClone, clones with immutable arguments):
    // CALLDATASIZE PUSH1 0x2c JUMPI CALLVALUE RETURNDATASIZE MSTORE PUSH32 ReceiveETH MSIZE
    // RETURNDATASIZE LOG1 STOP JUMPDEST CALLDATASIZE RETURNDATASIZE RETURNDATASIZE CALLDATACOPY
    // RETURNDATASIZE x4 PUSH2 n DUP1 PUSH1 0x62 CALLDATASIZE CODECOPY CALLDATASIZE ADD
    // RETURNDATASIZE PUSH20 impl GAS DELEGATECALL RETURNDATASIZE RETURNDATASIZE SWAP4 DUP1
    // RETURNDATACOPY PUSH1 0x60 JUMPI REVERT JUMPDEST RETURN
    const nHex = n.toString(16).padStart(4, "0");
    const expected = `0x36602c57343d527f${keccak256(toHex("ReceiveETH(uint256)")).slice(2)}593da1005b363d3d373d3d3d3d61${nHex}806062363936013d73${implementation.slice(2).toLowerCase()}5af43d3d93803e606057fd5bf3${args.slice(2)}${nHex}`;
    expect(code).toBe(expected);
    expect((code.length - 2) / 2).toBe(0x62 + n);
  });

  it("gives back every argument", () => {
    const parsed = parseGameClone(code);
    expect(parsed).toEqual({
      implementation,
      creator,
      rootClaim,
      l1Head,
      l2SequenceNumber: l2Block,
      parentAddress: parent,
      intermediateRoots: roots,
      extraData: extra,
    });
  });

  it("refuses code that is not such a clone", () => {
    expect(() => parseGameClone(`0x${code.slice(2, -4)}0000`)).toThrow(/argument length/);
    expect(() => parseGameClone(`0x37${code.slice(4)}`)).toThrow(/proxy code/);
    expect(() => parseGameClone("0x6080604052")).toThrow(/too short/);
  });
});

describe("game ids and statuses", () => {
  it("unpacks the factory's list entry: type, creation time, address", () => {
    const id = concat([toHex(621, { size: 4 }), toHex(1_780_000_000n, { size: 8 }), parent.toLowerCase() as Hex]);
    expect(unpackGameId(id)).toEqual({ gameType: 621, timestamp: 1_780_000_000n, game: parent });
  });

  it("names Base's GameStatus values", () => {
    expect([0, 1, 2].map(gameStatusName)).toEqual(["IN_PROGRESS", "CHALLENGER_WINS", "DEFENDER_WINS"]);
    expect(GAME_STATUS.DEFENDER_WINS).toBe(2);
    expect(() => gameStatusName(3)).toThrow();
  });
});
