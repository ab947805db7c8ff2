/**
 * Replay safety for paid routes: the x402 middleware keeps no record of used authorizations, so
 * before it runs, each (network, payer, nonce) of an EIP-3009 authorization is reserved in the
 * operator store, atomically (two concurrent copies: one wins, the other gets 409 before any
 * handler or settlement). After the response, a settled authorization is marked settled; one
 * that did not settle (bad input, handler error, failed verify or settle) is released, so the
 * payer may retry it. A reservation left by a request that died is recovered from the chain
 * after the lease (settlement-recovery.ts); a settlement found that way was paid for and never
 * answered, so one retry of the same authorization gets its answer without a second charge.
 */

import { decodePaymentRequiredHeader, decodePaymentResponseHeader, encodePaymentResponseHeader } from "@x402/core/http";
import type { Network } from "@x402/core/types";
import type { Context, MiddlewareHandler, Next } from "hono";
import { withBodyIfEmpty } from "../http/empty-body.js";
import { errorBody } from "../http/errors.js";
import type { OperatorStore, PaymentAuthorization, PaymentRepository } from "../store/operator-store.js";
import { checkPaymentHeader, type ExactEvmPayment } from "./payment-header.js";
import { recoverReservation, type SettlementProbe } from "./settlement-recovery.js";

/** Set on a request answered as the redelivery of a settled authorization: x402 must not charge it again. */
export const REDELIVERY = "paymentRedelivery";

export type ReplayGuardOptions = {
  /** Seconds after which a reservation whose request has not finished counts as abandoned. */
  leaseSeconds: number;
  probe: SettlementProbe;
  /** The chain head, recorded with a reservation (where a search for its settlement starts); null if unknown. */
  headBlock: () => Promise<bigint | null>;
};

export type AuthorizationKey = { network: Network; payer: string; nonce: string };

/** The (network, payer, nonce) of a checked exact-EVM payment. */
export function authorizationOf(payment: ExactEvmPayment): AuthorizationKey {
  const a = payment.payload.authorization;
  return { network: payment.accepted.network, payer: a.from.toLowerCase(), nonce: a.nonce.toLowerCase() };
}

export function replayGuard(store: Promise<OperatorStore>, o: ReplayGuardOptions): MiddlewareHandler {
  return async (c, next) => {
    const header = c.req.header("PAYMENT-SIGNATURE") ?? c.req.header("X-PAYMENT");
    if (!header) return next(); // no payment yet: the middleware answers 402 with the challenge
    const checked = checkPaymentHeader(header);
    if (!checked.ok) return c.json(errorBody("invalid_payment_header", checked.reason), 400);
    const key = authorizationOf(checked.payment);
    const resource = `${c.req.method} ${c.req.path}`;
    const payments = (await store).payments;
    const reservedBlock = await o.headBlock();
    const reservation = { ...key, resource, reservedBlock };
    if (!(await payments.reserve(reservation))) {
      const existing = await recoverIfAbandoned(payments, await payments.get(key), o);
      if (existing === null && (await payments.reserve(reservation)))
        return settleOnce(c, next, payments, reservation, o.probe);
      if (existing?.status === "settled" && !existing.delivered && existing.resource === resource)
        return redeliver(c, next, payments, key, resource);
      if (existing?.status === "reserved") {
        const retryAfter = Math.max(1, Math.ceil(o.leaseSeconds - (Date.now() - existing.updatedAt.getTime()) / 1000));
        c.header("Retry-After", String(retryAfter));
        return c.json(
          errorBody(
            "payment_in_progress",
            "a request with this payment authorization is still in progress; retry it after Retry-After seconds (it is settled at most once)",
            { payer: key.payer, nonce: key.nonce, retryAfterSeconds: retryAfter },
          ),
          409,
        );
      }
      return c.json(
        errorBody("payment_already_used", "this payment authorization was already presented; sign a new one", {
          payer: key.payer,
          nonce: key.nonce,
          settlementTx: existing?.settlementTx ?? null,
        }),
        409,
      );
    }
    return settleOnce(c, next, payments, reservation, o.probe);
  };
}

/** A reservation older than the lease is settled or released by what the chain shows; the row as it is then. */
async function recoverIfAbandoned(
  payments: PaymentRepository,
  row: PaymentAuthorization | null,
  o: ReplayGuardOptions,
) {
  if (row?.status !== "reserved" || Date.now() - row.updatedAt.getTime() < o.leaseSeconds * 1000) return row;
  await recoverReservation(payments, row, o.probe);
  return payments.get(row);
}

/**
 * The normal path: x402 verifies, the handler answers, x402 settles; then the record follows. A
 * payment refused with 402 may have failed in settlement after its transfer was sent (a timeout
 * waiting for the receipt): the chain decides whether it is released or recorded as owed.
 */
async function settleOnce(
  c: Context,
  next: Next,
  payments: PaymentRepository,
  r: AuthorizationKey & { resource: string; reservedBlock: bigint | null },
  probe: SettlementProbe,
) {
  const key: AuthorizationKey = { network: r.network, payer: r.payer, nonce: r.nonce };
  let settledTx: string | null = null;
  try {
    await next();
    if (c.res.status === 402) c.res = await explainRejection(c.res);
    const receipt = c.res.headers.get("PAYMENT-RESPONSE");
    if (c.res.status < 400 && receipt) {
      const settled = decodePaymentResponseHeader(receipt) as { success?: boolean; transaction?: string };
      if (settled.success && settled.transaction) settledTx = settled.transaction;
    }
  } finally {
    if (settledTx) await payments.markSettled(key, settledTx);
    else if (c.res?.status === 402) await recoverReservation(payments, r, probe);
    else await payments.release(key);
  }
}

/**
 * The answer owed for a settlement whose request died: the handler runs without x402 (nothing is
 * charged again), and the one caller that claims the delivery gets it with the original receipt.
 */
async function redeliver(c: Context, next: Next, payments: PaymentRepository, key: AuthorizationKey, resource: string) {
  c.set(REDELIVERY, true);
  await next();
  if (c.res.status >= 400) return; // not delivered: still owed, the payer may retry again
  const tx = await payments.claimRedelivery(key, resource);
  if (!tx) {
    c.res = c.json(
      errorBody("payment_already_used", "this payment authorization was already presented; sign a new one", {
        payer: key.payer,
        nonce: key.nonce,
      }),
      409,
    );
    return;
  }
  c.res.headers.set(
    "PAYMENT-RESPONSE",
    encodePaymentResponseHeader({ success: true, transaction: tx, network: key.network, payer: key.payer }),
  );
  c.res.headers.set("Cache-Control", "private, no-store");
}

/**
 * The x402 middleware answers a rejected payment (bad signature, expired, underpaid, failed
 * settlement) with `402 {}` and the reason only inside the base64 PAYMENT-REQUIRED header: the
 * JSON body says it too, in the error shape of every other answer.
 */
function explainRejection(res: Response): Promise<Response> {
  return withBodyIfEmpty(res, () => {
    let reason = "the payment was not accepted";
    try {
      const header = res.headers.get("PAYMENT-REQUIRED");
      const required = header ? (decodePaymentRequiredHeader(header) as { error?: unknown }) : null;
      if (typeof required?.error === "string" && required.error) reason = required.error;
    } catch {
      // keep the generic reason: the header is the middleware's own and should always decode
    }
    return errorBody("payment_rejected", `payment rejected: ${reason}; nothing was charged`, { reason });
  });
}
