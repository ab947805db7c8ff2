/**
 * The agent side: buys a paid artifact with @x402/fetch under explicit spend limits, then
 * verifies what came back (the hash of the published bytes, the EIP-191 signer, and that the
 * signer binding authorises that signer at the signed time) before anyone relies on it.
 */
import { wrapFetchWithPayment, x402Client } from "@x402/fetch";
import { ExactEvmScheme } from "@x402/evm/exact/client";
import { decodePaymentResponseHeader } from "@x402/core/http";
import { getAddress, type Address, type Hex } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { trustedSignersAt, verifySignerBinding } from "../../core/attestation/binding.js";
import { verifyArtifact, type VerifyResult } from "../../core/attestation/verify.js";
import { KusdError } from "../../core/errors.js";

export class PurchaseError extends KusdError<{ status?: number; body?: unknown }> {
  override name = "PurchaseError";
  readonly code: string = "purchase_failed";
  constructor(message: string, details: { status?: number; body?: unknown } = {}) {
    super(message, details);
  }
}

export type SpendLimit = { network: `${string}:${string}`; asset: Address; /** atomic units (USDC: 6 decimals) */ maxAmount: bigint };

export type BuyOptions = {
  url: string;
  method: "GET" | "POST";
  body?: unknown;
  privateKey: Hex;
  limit: SpendLimit;
  /** Who may sign: the binding (verified against the pinned operator), or one pinned signer. */
  trust: { binding: string; operator: Address } | { signer: Address };
  fetch?: typeof fetch;
};

export type Purchase = { status: number; artifact: Record<string, unknown>; settlement: { transaction?: string; payer?: string; network?: string } | null; verification: VerifyResult };

/** An x402 fetch that pays only the one asset on the one network, up to maxAmount per payment. */
export function payingFetch(privateKey: Hex, limit: SpendLimit, base: typeof fetch = fetch) {
  const client = new x402Client()
    .register(limit.network, new ExactEvmScheme(privateKeyToAccount(privateKey)))
    .setSpendControls({ maxAmountPerPayment: false, allowedAssets: [{ network: limit.network, asset: limit.asset, maxAmountPerPayment: limit.maxAmount.toString() }] });
  return wrapFetchWithPayment(base, client);
}

export async function buy(o: BuyOptions): Promise<Purchase> {
  const base = o.fetch ?? fetch;
  const pay = payingFetch(o.privateKey, o.limit, base);
  const res = await pay(o.url, {
    method: o.method,
    headers: o.body === undefined ? {} : { "content-type": "application/json" },
    body: o.body === undefined ? undefined : JSON.stringify(o.body),
  });
  const text = await res.text();
  let artifact: Record<string, unknown>;
  try {
    artifact = JSON.parse(text) as Record<string, unknown>;
  } catch {
    throw new PurchaseError(`the gateway answered ${res.status} with a body that is not JSON`, { status: res.status, body: text.slice(0, 500) });
  }
  if (!res.ok) throw new PurchaseError(`the gateway answered ${res.status}`, { status: res.status, body: artifact });
  const receipt = res.headers.get("PAYMENT-RESPONSE");
  const settlement = receipt ? (decodePaymentResponseHeader(receipt) as Purchase["settlement"]) : null;

  let trusted: (t: number) => Address[];
  if ("signer" in o.trust) {
    const pinned = getAddress(o.trust.signer);
    trusted = () => [pinned];
  } else {
    const published = await (await base(o.trust.binding)).json();
    const binding = await verifySignerBinding(published, o.trust.operator);
    trusted = (t) => trustedSignersAt(binding, t);
  }
  const verification = await verifyArtifact(artifact, { trustedSigner: trusted, maxAgeSeconds: null });
  return { status: res.status, artifact, settlement, verification };
}
