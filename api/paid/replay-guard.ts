/**
 * Replay safety for paid routes: the x402 middleware keeps no record of used authorizations, so
 * before it runs, each (network, payer, nonce) of an EIP-3009 authorization is reserved in the
 * operator store, atomically (two concurrent copies: one wins, the other gets 409 before any
 * handler or settlement). After the response, a settled authorization is marked settled; one
 * that did not settle (bad input, handler error, failed verify or settle) is released, so the
 * payer may retry it.
 */
import type { MiddlewareHandler } from "hono";
import { decodePaymentRequiredHeader, decodePaymentResponseHeader } from "@x402/core/http";
import { withBodyIfEmpty } from "../http/empty-body.js";
import { errorBody } from "../http/errors.js";
import type { OperatorStore } from "../store/operator-store.js";
import { checkPaymentHeader, type ExactEvmPayment } from "./payment-header.js";

export type AuthorizationKey = { network: string; payer: string; nonce: string };

/** The (network, payer, nonce) of a checked exact-EVM payment. */
export function authorizationOf(payment: ExactEvmPayment): AuthorizationKey {
  const a = payment.payload.authorization;
  return { network: payment.accepted.network, payer: a.from.toLowerCase(), nonce: a.nonce.toLowerCase() };
}

export function replayGuard(store: Promise<OperatorStore>): MiddlewareHandler {
  return async (c, next) => {
    const header = c.req.header("PAYMENT-SIGNATURE") ?? c.req.header("X-PAYMENT");
    if (!header) return next(); // no payment yet: the middleware answers 402 with the challenge
    const checked = checkPaymentHeader(header);
    if (!checked.ok) return c.json(errorBody("invalid_payment_header", checked.reason), 400);
    const key = authorizationOf(checked.payment);
    const payments = (await store).payments;
    if (!(await payments.reserve({ ...key, resource: `${c.req.method} ${c.req.path}` }))) {
      return c.json(errorBody("payment_already_used", "this payment authorization was already presented; sign a new one", { payer: key.payer, nonce: key.nonce }), 409);
    }
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
      else await payments.release(key);
    }
  };
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
