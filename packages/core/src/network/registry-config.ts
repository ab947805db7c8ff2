/**
 * The operator's account registry as configured (spec 2.6): each version lists the accounts and
 * disclosed venue deposits in force from its issued_at. Published registry documents are built
 * from these, and a verified published document is read back into them.
 */
import type { Address, Hex } from "viem";
import type { Predicate } from "../registry/predicates.js";

export type RegistryEntryConfig = {
  address: Address;
  kind: "eoa" | "contract";
  chain: "base";
  role: string;
  venue: string | null;
  label: string;
  holds_protocol_funds: boolean;
  backs_kusd: boolean;
  /** What this entry stands for in the network configuration (a contract role or account name). */
  ref: string;
  /**
   * The proof as published, for a version read from KUSD_REGISTRY_SOURCE: the account's own
   * membership signature, or the contract's predicate (re-observed at our head when republished).
   */
  published?: { signature: Hex } | { predicate: Predicate; secondary: Predicate | null; why: string };
};

export type DisclosedVenueDepositConfig = {
  address: Address;
  symbol: string;
  venue: string;
  chain: "base";
  asset: string;
  what_it_is: string;
  receives_from: Address[];
  public_per_address_read: string;
  disclosed_at: string;
};

export type RegistryVersionConfig = {
  registry_version: number;
  issued_at: number;
  as_of: string;
  entries: RegistryEntryConfig[];
  disclosed_venue_deposits: DisclosedVenueDepositConfig[];
};
