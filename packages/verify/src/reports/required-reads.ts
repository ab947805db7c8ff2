/**
 * Reads a report cannot do without (the service publishes nothing when one fails): when the
 * reader's RPC fails one, that is the RPC not answering (exit 2, nothing judged), never a figure
 * that differs.
 */
import { ChainReadError } from "../read-plan/pinned-reader.js";
import { RederivationError } from "../rederive/rederive-statement.js";

export async function requiredReads<T>(reads: Promise<T>, block: bigint): Promise<T> {
  try {
    return await reads;
  } catch (e) {
    if (!(e instanceof ChainReadError)) throw e;
    const what = e.details.signature ? `${e.details.signature} on ${e.details.to}` : e.message;
    throw new RederivationError("rpc_failed", `the RPC did not answer ${what} at block ${block}`, {
      block: String(block),
      ...(e.details.cause !== undefined && { cause: e.details.cause }),
    });
  }
}
