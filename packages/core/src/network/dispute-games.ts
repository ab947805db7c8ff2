/**
 * Base's output roots on Ethereum since the Azul upgrade (2026-05-28): each is the root claim of an
 * AggregateVerifier dispute game (game type 621) created by Base's DisputeGameFactory, one game
 * every 600 L2 blocks (20 minutes at 2 s), each carrying the output root of every 30th block of its
 * range. Addresses and parameters from base/contract-deployments (archive/legacy/mainnet/
 * 2026-05-21-activate-multiproof/.env and the implementation rotations after it, last
 * 2026-07-22-upgrade-plonk-and-verifier-hashes) and base/contracts at f3a33c85 (the commit that
 * implementation was built from); docs/base-output-roots.md tells the whole story with sources.
 * The devnet runs the same factory, registry and game interface at the same addresses.
 */
import {
  type Address,
  bytesToHex,
  encodeAbiParameters,
  encodePacked,
  getAddress,
  type Hex,
  hexToBigInt,
  hexToBytes,
  keccak256,
  toHex,
} from "viem";

/** Base's L1 proof system on Ethereum mainnet (chain 1). */
export const BASE_PROOF_SYSTEM = {
  /** Behind a proxy (implementation 0x468C…1a0c since 2026-05-21). */
  disputeGameFactory: "0x43edB88C4B80fDD2AdFF2412A7BebF9dF42cB40e",
  /** Behind a proxy (implementation 0x4483…b99D since 2026-05-21): anchor, blacklist, retirement, finality delay. */
  anchorStateRegistry: "0x909f6cf47ed12f010A796527f562bFc26C7F4E72",
  /** Behind a proxy: names the guardian who may blacklist games. */
  systemConfig: "0x73a79Fab69143498Ed3712e519A88a918e1f4072",
  optimismPortal: "0x49048044D57e1C92A77f79988d21Fa8fAF74E97e",
  /** The game implementation the factory clones for type 621 since 2026-07-22 (rotated at each verifier change). */
  aggregateVerifier: "0xeE303bA054c5F1E14A8EF87f1C7E285af45A1ba2",
  teeVerifier: "0x1FbA0C57b07Af804A9717e51dec9CC27FBC12228",
  zkVerifier: "0xB88D95bDf6972508942d184866890c1834219B75",
  gameType: 621,
  /** L2 blocks between a game's parent root and its own. */
  blockInterval: 600,
  /** L2 blocks between two intermediate roots of a game. */
  intermediateBlockInterval: 30,
  /** A game with one proof resolves this long after it (AggregateVerifier.SLOW_FINALIZATION_DELAY). */
  slowFinalizationDelaySeconds: 5 * 86_400,
  /** ... and with a TEE and a ZK proof, this long (FAST_FINALIZATION_DELAY). */
  fastFinalizationDelaySeconds: 86_400,
  /** AnchorStateRegistry.disputeGameFinalityDelaySeconds: a resolved game is final one second later. */
  disputeGameFinalityDelaySeconds: 0,
} as const;

/** A game's `status()`: Base's GameStatus enum. */
export const GAME_STATUS = { IN_PROGRESS: 0, CHALLENGER_WINS: 1, DEFENDER_WINS: 2 } as const;
export type GameStatusName = keyof typeof GAME_STATUS;

export function gameStatusName(status: number): GameStatusName {
  const name = (Object.keys(GAME_STATUS) as GameStatusName[]).find((k) => GAME_STATUS[k] === status);
  if (!name) throw new Error(`not a game status: ${status}`);
  return name;
}

/** What a type-621 game claims beyond its root: its L2 block, its parent, its intermediate roots. */
export type GameExtraData = { l2BlockNumber: bigint; parent: Address; intermediateRoots: readonly Hex[] };

/** L2 block number (32 bytes), parent game (20 bytes), then each intermediate root (32 bytes). */
export function encodeGameExtraData(g: GameExtraData): Hex {
  return encodePacked(["uint256", "address", "bytes32[]"], [g.l2BlockNumber, g.parent, g.intermediateRoots]);
}

/** The factory's key of a game: `keccak256(abi.encode(gameType, rootClaim, extraData))`. */
export function gameUuid(gameType: number, rootClaim: Hex, extraData: Hex): Hex {
  return keccak256(
    encodeAbiParameters([{ type: "uint32" }, { type: "bytes32" }, { type: "bytes" }], [gameType, rootClaim, extraData]),
  );
}

/** A GameId of the factory's list: game type (top 32 bits), creation time (64), game address (160). */
export function unpackGameId(id: Hex): { gameType: number; timestamp: bigint; game: Address } {
  const v = hexToBigInt(id);
  return {
    gameType: Number(v >> 224n),
    timestamp: (v >> 160n) & 0xffff_ffff_ffff_ffffn,
    game: getAddress(toHex(v & ((1n << 160n) - 1n), { size: 20 })),
  };
}

/** The immutable arguments of a game clone, as its code holds them. */
export type GameCloneArgs = {
  implementation: Address;
  creator: Address;
  rootClaim: Hex;
  /** Hash of the L1 block before the one the game was created in. */
  l1Head: Hex;
  l2SequenceNumber: bigint;
  parentAddress: Address;
  intermediateRoots: Hex[];
  /** The extra data the factory keyed the game by. */
  extraData: Hex;
};

/** Where the arguments start in a clone's code: after its 98 bytes of proxy code. */
export const CLONE_ARGS_OFFSET = 0x62;

/**
 * The proxy code before the arguments, in three pieces around the 2-byte argument length and the
 * implementation's address (Solady LibClone's clone with immutable arguments, which Base's factory
 * deploys): an empty call emits ReceiveETH(uint256) and stops, any other is forwarded by
 * DELEGATECALL with the arguments and their length + 2 appended to the call data.
 */
const CLONE_HEAD = `0x36602c57343d527f${keccak256(toHex("ReceiveETH(uint256)")).slice(2)}593da1005b363d3d373d3d3d3d61`;
const CLONE_MIDDLE = "806062363936013d73";
const CLONE_TAIL = "5af43d3d93803e606057fd5bf3";

/** The code of a clone of `implementation` with `args`, as the factory creates it. */
export function gameCloneCode(implementation: Address, args: Hex): Hex {
  const extraLength = toHex(hexToBytes(args).length + 2, { size: 2 }).slice(2);
  return `${CLONE_HEAD}${extraLength}${CLONE_MIDDLE}${implementation.slice(2).toLowerCase()}${CLONE_TAIL}${args.slice(2)}${extraLength}` as Hex;
}

/**
 * Reads a type-621 game's arguments from its code (`eth_getCode`, or the code proven by an account
 * proof): creator (20 bytes), root claim (32), L1 head (32), then the extra data: L2 block (32),
 * parent (20), intermediate roots (32 each). Throws on code that is not such a clone.
 */
export function parseGameClone(code: Hex): GameCloneArgs {
  const bytes = hexToBytes(code);
  if (bytes.length < CLONE_ARGS_OFFSET + 2) throw new Error("not a game clone: code too short");
  const extraLength = (bytes[bytes.length - 2]! << 8) | bytes[bytes.length - 1]!;
  if (bytes.length !== CLONE_ARGS_OFFSET + extraLength) throw new Error("not a game clone: argument length");
  const args = bytes.slice(CLONE_ARGS_OFFSET, bytes.length - 2);
  const implementation = getAddress(bytesToHex(bytes.slice(0x41, 0x55)));
  if (gameCloneCode(implementation, bytesToHex(args)).toLowerCase() !== code.toLowerCase())
    throw new Error("not a game clone: proxy code");
  const rootsLength = args.length - 0x88;
  if (rootsLength < 32 || rootsLength % 32 !== 0) throw new Error("not a game clone: intermediate roots");
  const word = (at: number) => bytesToHex(args.slice(at, at + 32));
  const address = (at: number) => getAddress(bytesToHex(args.slice(at, at + 20)));
  return {
    implementation,
    creator: address(0x00),
    rootClaim: word(0x14),
    l1Head: word(0x34),
    l2SequenceNumber: hexToBigInt(word(0x54)),
    parentAddress: address(0x74),
    intermediateRoots: Array.from({ length: rootsLength / 32 }, (_, i) => word(0x88 + 32 * i)),
    extraData: bytesToHex(args.slice(0x54)),
  };
}
