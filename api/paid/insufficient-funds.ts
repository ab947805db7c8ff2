/**
 * An underfunded payer is told so. The facilitator's verification simulates the EIP-3009
 * transfer; with too little of the asset the simulation reverts, and x402 reports only
 * `invalid_exact_evm_transaction_simulation_failed` (its diagnosis reads the balance through
 * Multicall3, which a devnet may not have) or at best `invalid_exact_evm_insufficient_balance`,
 * without figures. So when verification fails for one of those reasons, the payer's balance of
 * the asset is read, and if it is below the price the failure says `insufficient_funds` (x402's
 * error code) with the balance and the price. The x402 middleware puts that reason in the 402's
 * PaymentRequired `error` (a human-readable string in x402 v2), and the JSON body repeats it
 * (replay-guard.ts); nothing is settled, as for any failed verification.
 */
import type { FacilitatorClient } from "@x402/core/server";
import { type Address, erc20Abi, formatUnits, getAddress, isAddress, type PublicClient } from "viem";

/** Failures a payer without enough of the asset produces. */
const BALANCE_REASONS = new Set([
  "invalid_exact_evm_transaction_simulation_failed",
  "invalid_exact_evm_insufficient_balance",
  "insufficient_funds",
]);

export type FundsAsset = { address: Address; symbol: string; decimals: number };
export type BalanceOf = (asset: Address, owner: Address) => Promise<bigint>;

/** The asset's balanceOf(owner) at the latest block, through this client. */
export const balanceOfReader =
  (client: PublicClient): BalanceOf =>
  (asset, owner) =>
    client.readContract({ address: asset, abi: erc20Abi, functionName: "balanceOf", args: [owner] });

/** The error text of a payer whose balance is below the price. */
export function insufficientFundsReason(payer: Address, balance: bigint, price: bigint, asset: FundsAsset): string {
  const amount = (units: bigint) => `${formatUnits(units, asset.decimals)} ${asset.symbol} (${units} units)`;
  return `insufficient_funds: the payer ${payer} holds ${amount(balance)} of ${asset.address}; the price is ${amount(price)}`;
}

type Verify = FacilitatorClient["verify"];
type VerifyResult = Awaited<ReturnType<Verify>>;

/** The facilitator, whose failed verifications say insufficient funds with the figures when that is the cause. */
export function explainingInsufficientFunds(
  facilitator: FacilitatorClient,
  o: { asset: FundsAsset; balanceOf: BalanceOf },
): FacilitatorClient {
  const explain = async (
    payload: Parameters<Verify>[0],
    requirements: Parameters<Verify>[1],
    failed: VerifyResult,
  ): Promise<VerifyResult | null> => {
    if (!BALANCE_REASONS.has(failed.invalidReason ?? "")) return null;
    const from = (payload.payload as { authorization?: { from?: unknown } }).authorization?.from;
    if (typeof from !== "string" || !isAddress(from)) return null;
    // Only for the asset this gateway is paid in (its decimals and symbol are known).
    if (!isAddress(requirements.asset) || getAddress(requirements.asset) !== getAddress(o.asset.address)) return null;
    const price = BigInt(requirements.amount);
    const balance = await o.balanceOf(o.asset.address, getAddress(from)).catch(() => null);
    // Unread, or enough after all: the facilitator's own reason stands.
    if (balance === null || balance >= price) return null;
    const reason = insufficientFundsReason(getAddress(from), balance, price, o.asset);
    return { ...failed, isValid: false, invalidReason: reason, invalidMessage: reason, payer: getAddress(from) };
  };
  return {
    verify: async (payload, requirements) => {
      let result: VerifyResult;
      try {
        result = await facilitator.verify(payload, requirements);
      } catch (e) {
        // A remote facilitator answers a failed verification with an error that carries the reason.
        const reason = (e as { invalidReason?: unknown }).invalidReason;
        if (typeof reason !== "string") throw e;
        const explained = await explain(payload, requirements, { isValid: false, invalidReason: reason });
        if (explained) return explained;
        throw e;
      }
      if (result.isValid) return result;
      return (await explain(payload, requirements, result)) ?? result;
    },
    settle: (payload, requirements) => facilitator.settle(payload, requirements),
    getSupported: () => facilitator.getSupported(),
  };
}
