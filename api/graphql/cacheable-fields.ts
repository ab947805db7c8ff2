/**
 * The root fields whose answer is a function of the indexed tables alone, so a response cache may
 * key it by the indexed head (response-cache.ts). Left out on purpose: reserves and stats (the
 * venue is read live), _meta (the chain's head), the signed statements (the operator store),
 * accountRegistry (the registry service), account (its fields may grow live reads).
 */
import { ENTITY_SPECS } from "./specs/index.js";

export const CACHEABLE_ROOT_FIELDS: ReadonlySet<string> = new Set([
  ...ENTITY_SPECS.map((s) => s.connection),
  "swapAggregates",
  "transferAggregates",
  "vaultEventAggregates",
  "psmVolume",
  "redemptionsByRedeemer",
  "psmParameters",
  "psms",
  "history",
]);
