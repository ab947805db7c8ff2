/** Transactions from accounts the devnet holds no key for (an admin, a Safe), through anvil impersonation. */
import type { Address, Hex, PublicClient, TransactionReceipt } from "viem";
import { expect } from "vitest";

/** Sends `data` to `to` as `from` (funded with 1,000 ETH for gas) and insists it succeeded. */
export async function sendAs(client: PublicClient, from: Address, to: Address, data: Hex): Promise<TransactionReceipt> {
  await client.request({ method: "anvil_impersonateAccount" as never, params: [from] as never });
  await client.request({ method: "anvil_setBalance" as never, params: [from, "0x3635C9ADC5DEA00000"] as never });
  const hash = (await client.request({
    method: "eth_sendTransaction" as never,
    params: [{ from, to, data }] as never,
  })) as Hex;
  await client.request({ method: "anvil_stopImpersonatingAccount" as never, params: [from] as never });
  const receipt = await client.waitForTransactionReceipt({ hash });
  expect(receipt.status).toBe("success");
  return receipt;
}
