/**
 * The signed payload of an instant read (POST /instant-read) from the token's reads at one block:
 * the one assembler of the gateway (api/paid/instant-read.ts) and of a reader re-reading the token
 * (packages/verify/src/rederive/rederive-instant-read.ts).
 */
import { type Address, formatUnits } from "viem";
import type { BlockPin } from "../reports/pins.js";
import type { InstantReadChain, InstantReadPayload } from "./paid-schema.js";

/** "1234567.5" → "1,234,567.5": the whole amount in token units, integer part grouped by thousands. */
export function groupAmount(raw: bigint, decimals: number): string {
  const [int, frac] = formatUnits(raw, decimals).split(".");
  const grouped = int!.replace(/\B(?=(\d{3})+(?!\d))/g, ",");
  return frac ? `${grouped}.${frac}` : grouped;
}

export type InstantReadInputs = {
  chain: InstantReadChain;
  chainId: number;
  address: Address;
  symbol: string;
  decimals: number;
  totalSupply: bigint;
  /** The block every read was made at. */
  block: BlockPin;
  /** When it is signed, unix seconds. */
  timestamp: number;
};

export function buildInstantReadPayload(r: InstantReadInputs): InstantReadPayload {
  return {
    kind: "erc20-total-supply",
    chain: r.chain,
    chain_id: r.chainId,
    address: r.address,
    symbol: r.symbol,
    decimals: r.decimals,
    total_supply_raw: r.totalSupply.toString(),
    total_supply_grouped: groupAmount(r.totalSupply, r.decimals),
    block_number: r.block.number,
    block_hash: r.block.hash,
    block_timestamp: r.block.timestamp,
    timestamp: r.timestamp,
  };
}
