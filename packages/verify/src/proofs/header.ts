/**
 * A block header checked against its hash: the header's fields RLP-encoded in the order the
 * execution layer defines them, and hashed with keccak-256. Base (an OP-stack chain) has the same
 * header as Ethereum: the London, Shanghai, Cancun and Prague fields appear as the chain reached
 * each fork (`withdrawalsRoot`, which Base sets to the L2ToL1MessagePasser storage root since
 * Isthmus; `blobGasUsed`, `excessBlobGas`, `parentBeaconBlockRoot`; `requestsHash`), and a field is
 * encoded only when the node returns it. The header that hashes to the trusted hash gives the
 * state root every storage proof is checked against.
 */
import { type Hex, keccak256, numberToHex, toRlp } from "viem";

/** A header as eth_getBlockByHash returns it (hex strings), the fields the hash covers. */
export type RpcHeader = {
  hash: Hex;
  parentHash: Hex;
  sha3Uncles: Hex;
  miner: Hex;
  stateRoot: Hex;
  transactionsRoot: Hex;
  receiptsRoot: Hex;
  logsBloom: Hex;
  difficulty: Hex;
  number: Hex;
  gasLimit: Hex;
  gasUsed: Hex;
  timestamp: Hex;
  extraData: Hex;
  mixHash: Hex;
  nonce: Hex;
  baseFeePerGas?: Hex | null;
  withdrawalsRoot?: Hex | null;
  blobGasUsed?: Hex | null;
  excessBlobGas?: Hex | null;
  parentBeaconBlockRoot?: Hex | null;
  requestsHash?: Hex | null;
};

/** An RLP integer: big-endian without leading zeros (zero is the empty string). */
function quantity(x: Hex): Hex {
  const n = BigInt(x);
  if (n === 0n) return "0x";
  const hex = numberToHex(n).slice(2);
  return `0x${hex.length % 2 ? `0${hex}` : hex}`;
}

const OPTIONAL = [
  ["baseFeePerGas", quantity],
  ["withdrawalsRoot", (x: Hex) => x],
  ["blobGasUsed", quantity],
  ["excessBlobGas", quantity],
  ["parentBeaconBlockRoot", (x: Hex) => x],
  ["requestsHash", (x: Hex) => x],
] as const;

/** keccak-256 of the header's RLP: what the block hash is, if the node told the truth about the header. */
export function headerHash(h: RpcHeader): Hex {
  const fields: Hex[] = [
    h.parentHash,
    h.sha3Uncles,
    h.miner,
    h.stateRoot,
    h.transactionsRoot,
    h.receiptsRoot,
    h.logsBloom,
    quantity(h.difficulty),
    quantity(h.number),
    quantity(h.gasLimit),
    quantity(h.gasUsed),
    quantity(h.timestamp),
    h.extraData,
    h.mixHash,
    h.nonce,
  ];
  // Each fork's fields follow the earlier ones: the first one missing ends the header.
  for (const [name, encode] of OPTIONAL) {
    const v = h[name];
    if (v === undefined || v === null) break;
    fields.push(encode(v));
  }
  return keccak256(toRlp(fields));
}
