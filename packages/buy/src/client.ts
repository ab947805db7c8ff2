/**
 * The agent side: buys a paid artifact with @x402/fetch under explicit spend limits, then
 * verifies what came back (the hash of the published bytes, the EIP-191 signer, and that the
 * signer binding authorises that signer at the signed time) before anyone relies on it.
 */

import {
  KusdError,
  pinnedTrust,
  STATEMENT_MAX_AGE_SECONDS,
  type Trust,
  trustFromBinding,
  type VerifyResult,
  verifyTrusted,
} from "@kusd/core";
import { decodePaymentRequiredHeader, decodePaymentResponseHeader } from "@x402/core/http";
import { ExactEvmScheme } from "@x402/evm/exact/client";
import { wrapFetchWithPayment, x402Client } from "@x402/fetch";
import { type Address, getAddress, type Hex } from "viem";
import { privateKeyToAccount } from "viem/accounts";

export type PurchaseErrorDetails = {
  status?: number;
  body?: unknown;
  /** Why the gateway refused the payment (x402's PAYMENT-REQUIRED `error`), when it said. */
  reason?: string;
  /** The price asked and the caller's cap, atomic units. */
  price?: bigint;
  maxAmount?: bigint;
  payer?: Address;
};

export class PurchaseError extends KusdError<PurchaseErrorDetails> {
  override name = "PurchaseError";
  readonly code: string = "purchase_failed";
  constructor(message: string, details: PurchaseErrorDetails = {}) {
    super(message, details);
  }
}

/** The purchase's HTTP request, paid or not. */
const requestOf = (o: BuyOptions): RequestInit => ({
  method: o.method,
  headers: o.body === undefined ? {} : { "content-type": "application/json" },
  body: o.body === undefined ? undefined : JSON.stringify(o.body),
});

/** What an unpaid request is asked to pay (the first `accepts` entry for our asset), or null. */
async function quote(o: BuyOptions, base: typeof fetch): Promise<{ amount: bigint; error?: string } | null> {
  const res = await base(o.url, requestOf(o)).catch(() => null);
  return res ? requiredOf(res, o.limit) : null;
}

function requiredOf(res: Response, limit: SpendLimit): { amount: bigint; error?: string } | null {
  const header = res.headers.get("PAYMENT-REQUIRED");
  if (!header) return null;
  try {
    const required = decodePaymentRequiredHeader(header);
    const offer =
      required.accepts.find((a) => a.network === limit.network && getAddress(a.asset) === limit.asset) ??
      required.accepts[0];
    return offer ? { amount: BigInt(offer.amount), ...(required.error && { error: required.error }) } : null;
  } catch {
    return null;
  }
}

export type SpendLimit = {
  network: `${string}:${string}`;
  asset: Address /** atomic units (USDC: 6 decimals) */;
  maxAmount: bigint;
};

export type BuyOptions = {
  url: string;
  method: "GET" | "POST";
  body?: unknown;
  privateKey: Hex;
  limit: SpendLimit;
  /** Who may sign: the binding (verified against the pinned operator), or one pinned signer. */
  trust: { binding: string; operator: Address } | { signer: Address };
  /** Oldest signed timestamp accepted, in seconds (default two hourly statements); null: not checked. */
  maxAgeSeconds?: number | null;
  fetch?: typeof fetch;
};

export type Purchase = {
  status: number;
  artifact: Record<string, unknown>;
  settlement: { transaction?: string; payer?: string; network?: string } | null;
  verification: VerifyResult;
};

/** An x402 fetch that pays only the one asset on the one network, up to maxAmount per payment. */
export function payingFetch(privateKey: Hex, limit: SpendLimit, base: typeof fetch = fetch) {
  const client = new x402Client()
    .register(limit.network, new ExactEvmScheme(privateKeyToAccount(privateKey)))
    .setSpendControls({
      maxAmountPerPayment: false,
      allowedAssets: [{ network: limit.network, asset: limit.asset, maxAmountPerPayment: limit.maxAmount.toString() }],
    });
  return wrapFetchWithPayment(base, client);
}

export async function buy(o: BuyOptions): Promise<Purchase> {
  const base = o.fetch ?? fetch;
  const pay = payingFetch(o.privateKey, o.limit, base);
  const payer = privateKeyToAccount(o.privateKey).address;
  let res: Response;
  try {
    res = await pay(o.url, requestOf(o));
  } catch (error) {
    // The x402 client refuses to sign above the cap; say so with both amounts.
    const asked = await quote(o, base);
    if (asked && asked.amount > o.limit.maxAmount) {
      throw new PurchaseError("the price is above your spending cap: nothing was signed or paid", {
        price: asked.amount,
        maxAmount: o.limit.maxAmount,
        payer,
      });
    }
    throw error;
  }
  if (res.status === 402) {
    // A payment was offered and refused (e.g. the payer cannot cover the price).
    const asked = requiredOf(res, o.limit);
    await res.text();
    throw new PurchaseError(`the gateway refused the payment${asked?.error ? ` (${asked.error})` : ""}`, {
      status: 402,
      ...(asked?.error && { reason: asked.error }),
      ...(asked && { price: asked.amount }),
      maxAmount: o.limit.maxAmount,
      payer,
    });
  }
  const text = await res.text();
  let artifact: Record<string, unknown>;
  try {
    artifact = JSON.parse(text) as Record<string, unknown>;
  } catch {
    throw new PurchaseError(`the gateway answered ${res.status} with a body that is not JSON`, {
      status: res.status,
      body: text.slice(0, 500),
    });
  }
  if (!res.ok) throw new PurchaseError(`the gateway answered ${res.status}`, { status: res.status, body: artifact });
  const receipt = res.headers.get("PAYMENT-RESPONSE");
  const settlement = receipt ? (decodePaymentResponseHeader(receipt) as Purchase["settlement"]) : null;

  const trust: Trust =
    "signer" in o.trust
      ? pinnedTrust([getAddress(o.trust.signer)])
      : await trustFromBinding(await (await base(o.trust.binding)).json().catch(() => null), o.trust.operator);
  // The gateway ran this same verification before it charged; the buyer runs it again on what arrived.
  const verification = await verifyTrusted(artifact, trust, {
    maxAgeSeconds: o.maxAgeSeconds === undefined ? STATEMENT_MAX_AGE_SECONDS : o.maxAgeSeconds,
  });
  return { status: res.status, artifact, settlement, verification };
}
