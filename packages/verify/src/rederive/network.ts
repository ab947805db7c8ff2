/**
 * The network a statement is about, from its network document (the operator's deployment file
 * plus its `kusd` section): which contracts and accounts the figures read. The verifier reads
 * only through the reader's RPC; the document's own RPC settings are the indexer's.
 */
import type { NetworkDocument } from "@kusd/config";
import { networkFromDocument, readServiceEnv } from "@kusd/config";
import type { NetworkConfig } from "@kusd/core";

export function networkOf(doc: NetworkDocument, rpcUrl: string): NetworkConfig {
  // The document asks for an Ethereum RPC too (the service's instant reads); the verifier never reads Ethereum.
  return networkFromDocument(doc, readServiceEnv({ PONDER_RPC_URL_8453: rpcUrl, KUSD_READ_RPC_URL_1: rpcUrl }));
}
