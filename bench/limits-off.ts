/**
 * The environment that turns issue 58's protections off, for the benches that measure without
 * them: no per-client limit, and readers' budgets (RPC calls, venue weight) no load can spend.
 */
export const LIMITS_OFF: Readonly<Record<string, string>> = {
  KUSD_RATE_LIMIT: "0",
  KUSD_READER_RPC_CALLS_PER_SECOND: "100000",
  KUSD_READER_RPC_BURST: "1000000",
  KUSD_READER_VENUE_WEIGHT_PER_MINUTE: "1000000",
  KUSD_READER_VENUE_BURST: "1000000",
};

/** NAME=VALUE flags as an environment. */
export function envFromFlags(pairs: readonly string[]): Record<string, string> {
  return Object.fromEntries(
    pairs.map((kv) => {
      const at = kv.indexOf("=");
      if (at < 1) throw new Error(`${kv}: expected NAME=VALUE`);
      return [kv.slice(0, at), kv.slice(at + 1)];
    }),
  );
}
