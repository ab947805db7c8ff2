/**
 * The pure half of the Base history simulator (devnet/base-history.ts): which real Base height
 * each block of a short anvil chain stands for, and what the empty blocks in between look like.
 * No I/O here, so the mapping can be reasoned about (and tested) on its own.
 */
import { type Hex, keccak256, toBytes, toRlp } from "viem";

export const BASE_GENESIS_TIMESTAMP = 1_686_789_347;

/** A block as anvil's JSON-RPC returns it (header fields, transactions, ...). */
export type RpcBlock = Record<string, unknown> & { number: Hex; hash: Hex; parentHash: Hex; timestamp: Hex };

/** What stands at a real height: one of anvil's blocks, or a synthesised empty one. */
export type Slot = { kind: "anvil"; block: RpcBlock } | { kind: "gap"; height: bigint };

export const ZERO_HASH: Hex = `0x${"0".repeat(64)}`;
/** Root of an empty Merkle-Patricia trie (no transactions, receipts or withdrawals). */
export const EMPTY_TRIE_ROOT: Hex = "0x56e81f171bcc55a6ff8345e692c0f86e5b48e01b996cadc001622fb5e363b421";
/** keccak256(rlp([])): the ommers hash of a block without uncles. */
export const EMPTY_UNCLES_HASH: Hex = "0x1dcc4de8dec75d7aab85b567b6ccd41ad312451b948a7413f0a142fd40d49347";
const EMPTY_BLOOM: Hex = `0x${"0".repeat(512)}`;

// Derived from a label rather than typed out, so it cannot be mistaken for a real hash prefix
// and any reader can recompute it. 24 bytes of marker + 8 bytes of height = one block hash.
const GAP_MARKER = keccak256(toBytes("kusd base-history gap block")).slice(2, 50);

/** The hash of the synthesised block at `height`; decodable by gapHeight. */
export function gapHash(height: bigint): Hex {
  return `0x${GAP_MARKER}${height.toString(16).padStart(16, "0")}`;
}

/** The height a synthesised block hash encodes, or null for any other hash. */
export function gapHeight(hash: unknown): bigint | null {
  if (typeof hash !== "string" || hash.length !== 66) return null;
  if (hash.slice(2, 50).toLowerCase() !== GAP_MARKER) return null;
  return BigInt(`0x${hash.slice(50)}`);
}

const hex = (n: bigint): Hex => `0x${n.toString(16)}`;

/** Minimal big-endian bytes of an integer for RLP (zero is the empty string). */
function rlpInt(value: unknown): Hex {
  const n = BigInt(value as string);
  if (n === 0n) return "0x";
  const digits = n.toString(16);
  return `0x${digits.length % 2 ? "0" : ""}${digits}`;
}

const INT_FIELDS = new Set([
  "difficulty",
  "number",
  "gasLimit",
  "gasUsed",
  "timestamp",
  "baseFeePerGas",
  "blobGasUsed",
  "excessBlobGas",
]);
// Header fields in consensus order; the trailing ones exist only after their fork.
const HEADER_FIELDS = [
  "parentHash",
  "sha3Uncles",
  "miner",
  "stateRoot",
  "transactionsRoot",
  "receiptsRoot",
  "logsBloom",
  "difficulty",
  "number",
  "gasLimit",
  "gasUsed",
  "timestamp",
  "extraData",
  "mixHash",
  "nonce",
  "baseFeePerGas",
  "withdrawalsRoot",
  "blobGasUsed",
  "excessBlobGas",
  "parentBeaconBlockRoot",
  "requestsHash",
] as const;

/** RLP size of an empty block with this header, as anvil reports `size`. */
function emptyBlockSize(block: Record<string, unknown>): Hex {
  const header = HEADER_FIELDS.filter((f) => block[f] !== undefined && block[f] !== null).map((f) =>
    INT_FIELDS.has(f) ? rlpInt(block[f]) : (block[f] as Hex),
  );
  // [header, transactions, uncles]: anvil leaves the (empty) withdrawals list out of `size`
  // (measured: 619 bytes for its own empty block), and gap blocks should match its real ones.
  return hex(BigInt((toRlp([header, [], []]).length - 2) / 2));
}

/**
 * Anvil's blocks in order with the real height of each. Heights come from the timestamps,
 * forced strictly increasing so two blocks never claim one height.
 */
export class HeightMap {
  private blocks: RpcBlock[] = [];
  private heights: bigint[] = [];
  private byHash = new Map<string, number>();

  constructor(
    readonly genesisTimestamp = BASE_GENESIS_TIMESTAMP,
    readonly blockTime = 2,
  ) {
    if (!(Number.isInteger(blockTime) && blockTime > 0))
      throw new Error("blockTime must be a positive whole number of seconds");
    if (!Number.isInteger(genesisTimestamp)) throw new Error("genesisTimestamp must be a whole number of seconds");
  }

  get size(): number {
    return this.blocks.length;
  }

  /** The newest anvil block known, or undefined before the first sync. */
  get latest(): RpcBlock | undefined {
    return this.blocks[this.blocks.length - 1];
  }

  get first(): RpcBlock | undefined {
    return this.blocks[0];
  }

  /** Height of the newest anvil block: the simulated chain's head. */
  get head(): bigint {
    const h = this.heights[this.heights.length - 1];
    if (h === undefined) throw new Error("height map is empty");
    return h;
  }

  private indexOfNumber(anvilNumber: bigint): number | undefined {
    const first = this.blocks[0];
    if (!first) return undefined;
    const i = Number(anvilNumber - BigInt(first.number));
    return i >= 0 && i < this.blocks.length ? i : undefined;
  }

  anvilBlock(anvilNumber: bigint): RpcBlock | undefined {
    const i = this.indexOfNumber(anvilNumber);
    return i === undefined ? undefined : this.blocks[i];
  }

  heightOfAnvil(anvilNumber: bigint): bigint | undefined {
    const i = this.indexOfNumber(anvilNumber);
    return i === undefined ? undefined : this.heights[i];
  }

  /** The anvil block with this hash, if it is on the chain the map knows. */
  anvilBlockByHash(hash: string): RpcBlock | undefined {
    const i = this.byHash.get(hash.toLowerCase());
    return i === undefined ? undefined : this.blocks[i];
  }

  /**
   * Takes blocks newly read from anvil, contiguous and in order. The first either follows a
   * block already held (everything after it is dropped: a reorg or a revert) or has no parent
   * on anvil at all (the map starts over).
   */
  update(fresh: RpcBlock[]): void {
    const start = fresh[0];
    if (!start) return;
    const keep = this.indexOfNumber(BigInt(start.number) - 1n);
    const linked = keep !== undefined && this.blocks[keep]!.hash === start.parentHash;
    const cut = linked ? keep + 1 : 0;
    for (const b of this.blocks.slice(cut)) this.byHash.delete(b.hash.toLowerCase());
    this.blocks.length = cut;
    this.heights.length = cut;
    for (const b of fresh) {
      const natural = (BigInt(b.timestamp) - BigInt(this.genesisTimestamp)) / BigInt(this.blockTime);
      const previous = this.heights[this.heights.length - 1];
      // BigInt division truncates towards zero; a timestamp before genesis clamps to height 0.
      const floor = natural < 0n ? 0n : natural;
      const height = previous === undefined || floor > previous ? floor : previous + 1n;
      this.byHash.set(b.hash.toLowerCase(), this.blocks.length);
      this.blocks.push(b);
      this.heights.push(height);
    }
  }

  /** Index of the last anvil block with height ≤ h, or -1 when h is below them all. */
  private floorIndex(h: bigint): number {
    let lo = 0;
    let hi = this.heights.length - 1;
    let found = -1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (this.heights[mid]! <= h) {
        found = mid;
        lo = mid + 1;
      } else hi = mid - 1;
    }
    return found;
  }

  /** What stands at height h, or null above the head (and below zero). */
  slot(h: bigint): Slot | null {
    if (h < 0n || this.blocks.length === 0 || h > this.head) return null;
    const i = this.floorIndex(h);
    return i >= 0 && this.heights[i] === h ? { kind: "anvil", block: this.blocks[i]! } : { kind: "gap", height: h };
  }

  /** The anvil block whose state height h has: the last one at or below h, else the first. */
  stateBlock(h: bigint): RpcBlock {
    const i = Math.max(0, this.floorIndex(h));
    const b = this.blocks[i];
    if (!b) throw new Error("height map is empty");
    return b;
  }

  hashAt(h: bigint): Hex {
    if (h < 0n) return ZERO_HASH;
    const s = this.slot(h);
    if (s === null) return gapHash(h); // above head: only asked for as a parent while racing a sync
    return s.kind === "anvil" ? s.block.hash : gapHash(h);
  }

  /** Anvil block numbers [from, to] of the blocks whose heights lie in [lo, hi], or null. */
  anvilRange(lo: bigint, hi: bigint): [bigint, bigint] | null {
    if (lo > hi) return null;
    const last = this.floorIndex(hi);
    if (last < 0) return null;
    const below = this.floorIndex(lo - 1n); // last block strictly below lo
    const firstIdx = below + 1;
    if (firstIdx > last) return null;
    const base = BigInt(this.blocks[0]!.number);
    return [base + BigInt(firstIdx), base + BigInt(last)];
  }

  /** The empty block at a gap height: the header of its state block with emptiness applied. */
  gapBlock(h: bigint): RpcBlock {
    const base = this.stateBlock(h);
    const block: Record<string, unknown> = {
      ...base,
      hash: gapHash(h),
      parentHash: this.hashAt(h - 1n),
      number: hex(h),
      timestamp: hex(BigInt(this.genesisTimestamp) + BigInt(this.blockTime) * h),
      transactionsRoot: EMPTY_TRIE_ROOT,
      receiptsRoot: EMPTY_TRIE_ROOT,
      sha3Uncles: EMPTY_UNCLES_HASH,
      logsBloom: EMPTY_BLOOM,
      gasUsed: "0x0",
      difficulty: "0x0",
      nonce: "0x0000000000000000",
      mixHash: ZERO_HASH,
      extraData: "0x",
      uncles: [],
      transactions: [],
    };
    if (base.withdrawalsRoot !== undefined) Object.assign(block, { withdrawalsRoot: EMPTY_TRIE_ROOT, withdrawals: [] });
    if (base.blobGasUsed !== undefined) block.blobGasUsed = "0x0";
    block.size = emptyBlockSize(block);
    return block as RpcBlock;
  }

  /** An anvil block as it appears at its real height (hash kept: logs and receipts name it). */
  realBlock(block: RpcBlock): RpcBlock {
    const h = this.heightOfAnvil(BigInt(block.number));
    if (h === undefined) throw new Error(`anvil block ${BigInt(block.number)} is not in the height map`);
    const out: RpcBlock = { ...block, number: hex(h), parentHash: h === 0n ? block.parentHash : this.hashAt(h - 1n) };
    if (Array.isArray(block.transactions)) {
      out.transactions = block.transactions.map((tx) =>
        typeof tx === "object" && tx !== null ? { ...tx, blockNumber: hex(h) } : tx,
      );
    }
    return out;
  }
}
