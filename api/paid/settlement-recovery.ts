/**
 * Settlement recovery. A paid request that dies between its reservation and its settlement
 * record (the process killed, the host lost) leaves a `reserved` row behind, and two questions
 * the payer cares about: was I charged, and can I retry? The chain answers both. Once the
 * reservation is older than the lease, EIP-3009's `authorizationState(payer, nonce)` says whether
 * the transfer ran:
 *   - it ran: the `AuthorizationUsed` log names the tx, which is recorded as a settlement that
 *     was never delivered, so one retry of the same authorization is answered without a charge;
 *   - it did not: the reservation is released, and the same authorization can be retried and
 *     is then settled once (the token itself refuses a nonce twice, so no path charges twice).
 * A read that fails leaves the row as it is: unknown is never guessed into either answer.
 */
import { type Address, type Hex, type PublicClient, parseAbiItem } from "viem";
import { fiatTokenV2Abi } from "../../abis/index.js";
import type { PaymentAuthorization, PaymentKey, PaymentRepository } from "../store/operator-store.js";

export type SettlementFinding = { used: false } | { used: true; tx: Hex | null };

/** Whether an authorization was executed on chain, and by which tx. */
export type SettlementProbe = (
  row: Pick<PaymentAuthorization, "payer" | "nonce" | "reservedBlock">,
) => Promise<SettlementFinding>;

export type RecoveryOutcome = "settled" | "released" | "unknown";

const authorizationUsed = parseAbiItem("event AuthorizationUsed(address indexed authorizer, bytes32 indexed nonce)");

/**
 * Reads the token: `authorizationState`, then the `AuthorizationUsed` log from the reservation's
 * block (or `fallbackBlocks` back when it is unknown), in ranges a provider accepts.
 */
export function chainSettlementProbe(
  client: PublicClient,
  asset: Address,
  options: { logRange?: bigint; fallbackBlocks?: bigint } = {},
): SettlementProbe {
  const logRange = options.logRange ?? 10_000n;
  const fallbackBlocks = options.fallbackBlocks ?? 50_000n;
  return async (row) => {
    const head = await client.getBlockNumber({ cacheTime: 0 });
    const args = [row.payer as Address, row.nonce as Hex] as const;
    const used = await client.readContract({
      address: asset,
      abi: fiatTokenV2Abi,
      functionName: "authorizationState",
      args,
      blockNumber: head,
    });
    if (!used) return { used: false };
    const first = row.reservedBlock ?? (head > fallbackBlocks ? head - fallbackBlocks : 0n);
    for (let from = first; from <= head; from += logRange) {
      const to = from + logRange - 1n < head ? from + logRange - 1n : head;
      const logs = await client.getLogs({
        address: asset,
        event: authorizationUsed,
        args: { authorizer: args[0], nonce: args[1] },
        fromBlock: from,
        toBlock: to,
      });
      if (logs[0]) return { used: true, tx: logs[0].transactionHash };
    }
    return { used: true, tx: null };
  };
}

/** Settles the record of one abandoned reservation by what the chain shows. */
export async function recoverReservation(
  payments: PaymentRepository,
  row: Pick<PaymentAuthorization, "network" | "payer" | "nonce" | "reservedBlock">,
  probe: SettlementProbe,
): Promise<RecoveryOutcome> {
  let finding: SettlementFinding;
  try {
    finding = await probe(row);
  } catch {
    return "unknown";
  }
  const key: PaymentKey = { network: row.network, payer: row.payer, nonce: row.nonce };
  if (!finding.used) {
    await payments.release(key);
    return "released";
  }
  if (!finding.tx) return "unknown"; // executed, but the log is out of reach: keep the reservation
  await payments.markSettled(key, finding.tx, { delivered: false });
  return "settled";
}

export type RecoverySweep = { runOnce(): Promise<Record<RecoveryOutcome, number>>; stop(): void };

/**
 * Recovers every reservation older than the lease, now and then every `leaseSeconds`, so that a
 * settlement made by a request that died is recorded even if its payer never comes back.
 */
export function startRecoverySweep(o: {
  payments: Promise<PaymentRepository>;
  probe: SettlementProbe;
  network: string;
  leaseSeconds: number;
  onError?: (e: unknown) => void;
}): RecoverySweep {
  let running: Promise<Record<RecoveryOutcome, number>> | null = null;
  const runOnce = () =>
    (running ??= (async () => {
      const counts: Record<RecoveryOutcome, number> = { settled: 0, released: 0, unknown: 0 };
      try {
        const payments = await o.payments;
        const stale = await payments.staleReservations(new Date(Date.now() - o.leaseSeconds * 1000));
        for (const row of stale.filter((r) => r.network === o.network))
          counts[await recoverReservation(payments, row, o.probe)]++;
        return counts;
      } finally {
        running = null;
      }
    })());
  const tick = () => runOnce().catch(o.onError ?? ((e) => console.error("[payments] recovery sweep:", e)));
  void tick();
  const timer = setInterval(tick, Math.max(1, o.leaseSeconds) * 1000);
  timer.unref();
  return { runOnce, stop: () => clearInterval(timer) };
}
