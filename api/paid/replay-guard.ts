/**
 * Replay safety for paid routes: the x402 middleware keeps no record of used authorizations, so
 * before it runs, each (network, payer, nonce) of an EIP-3009 authorization is reserved in the
 * operator store, atomically (two concurrent copies: one wins, the other gets 409 before any
 * handler or settlement). After the response, a settled authorization is marked settled; one
 * that did not settle (bad input, handler error, failed verify or settle) is released, so the
 * payer may retry it.
 */
import type { MiddlewareHandler } from "hono";
import { decodePaymentResponseHeader, decodePaymentSignatureHeader } from "@x402/core/http";
import { errorBody } from "../http/errors.js";
import type { OperatorStore } from "../store/operator-store.js";

export type AuthorizationKey = { network: string; payer: string; nonce: string };

/** The (network, payer, nonce) of an exact-EVM EIP-3009 payment header, or null when it has none. */
export function authorizationOf(header: string): AuthorizationKey | null {
  try {
    const p = decodePaymentSignatureHeader(header) as { accepted?: { network?: string }; payload?: { authorization?: { from?: string; nonce?: string } } };
    const a = p.payload?.authorization;
    if (!a?.from || !a?.nonce || !p.accepted?.network) return null;
    return { network: p.accepted.network, payer: a.from.toLowerCase(), nonce: a.nonce.toLowerCase() };
  } catch {
    return null;
  }
}

export function replayGuard(store: Promise<OperatorStore>): MiddlewareHandler {
  return async (c, next) => {
    const header = c.req.header("PAYMENT-SIGNATURE") ?? c.req.header("X-PAYMENT");
    const key = header ? authorizationOf(header) : null;
    if (!key) return next(); // no payment yet (→ 402), or one the middleware will reject itself
    const payments = (await store).payments;
    if (!(await payments.reserve({ ...key, resource: `${c.req.method} ${c.req.path}` }))) {
      return c.json(errorBody("payment_already_used", "this payment authorization was already presented; sign a new one", { payer: key.payer, nonce: key.nonce }), 409);
    }
    let settledTx: string | null = null;
    try {
      await next();
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
