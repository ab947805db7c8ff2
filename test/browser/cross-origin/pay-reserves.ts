/**
 * The script of a page on another origin than the API (bundled by cross-origin-payment.test.ts
 * for Chromium): it reads the 402's PAYMENT-REQUIRED header, pays GET /paid/reserves with the
 * official x402 client (@x402/fetch with @x402/evm's exact scheme) from a key the test gives it,
 * reads the PAYMENT-RESPONSE receipt, and verifies the artifact with the reserves page's own
 * verifier against the signer binding fetched from the same API. Every one of those steps needs
 * the API's CORS headers.
 */
import { decodePaymentRequiredHeader, decodePaymentResponseHeader } from "@x402/core/http";
import { ExactEvmScheme } from "@x402/evm/exact/client";
import { wrapFetchWithPayment, x402Client } from "@x402/fetch";
import type { Address, Hex } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { verifyStatementText } from "../../../web/src/verify-statement.js";

export type PayReservesInput = {
  api: string;
  privateKey: Hex;
  network: `${string}:${string}`;
  asset: Address;
  /** The payer's cap, in the asset's smallest units. */
  maxAmount: string;
  /** The operator account the buyer trusts (it signs the binding). */
  operator: Address;
};

export async function payReserves(i: PayReservesInput) {
  const url = `${i.api}/paid/reserves`;
  const unpaid = await fetch(url);
  const challenge = unpaid.headers.get("PAYMENT-REQUIRED");
  const required = challenge ? decodePaymentRequiredHeader(challenge) : null;
  await unpaid.text();
  const client = new x402Client()
    .register(i.network, new ExactEvmScheme(privateKeyToAccount(i.privateKey)))
    .setSpendControls({
      maxAmountPerPayment: false,
      allowedAssets: [{ network: i.network, asset: i.asset, maxAmountPerPayment: i.maxAmount }],
    });
  const paid = await wrapFetchWithPayment(fetch, client)(url);
  const text = await paid.text();
  const receipt = paid.headers.get("PAYMENT-RESPONSE");
  const binding = await fetch(`${i.api}/api/por/signer-registry`);
  const verification = await verifyStatementText(text, binding.ok ? await binding.text() : null, i.operator);
  return {
    origin: location.origin,
    unpaidStatus: unpaid.status,
    price: required?.accepts[0]?.amount ?? null,
    bazaarMethod: (required?.extensions?.bazaar as { info?: { input?: { method?: string } } })?.info?.input?.method,
    status: paid.status,
    requestId: paid.headers.get("X-Request-Id"),
    settlement: receipt ? decodePaymentResponseHeader(receipt) : null,
    attestationHash: verification.attestationHash,
    verified: verification.verified,
    checks: verification.checks,
  };
}

(globalThis as { payReserves?: typeof payReserves }).payReserves = payReserves;
