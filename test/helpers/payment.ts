/** Paying on the devnet from tests: a funded agent, and a signed x402 exact-EVM payment header. */
import { encodePaymentSignatureHeader } from "@x402/core/http";
import { type Address, getAddress, type Hex, parseUnits, toHex } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { fiatTokenV2Abi } from "../../abis/index.js";
import { devnetKey } from "../../devnet/keys.js";
import type { stack } from "./stack.js";

type Stack = ReturnType<typeof stack>;

/** A fresh agent with USDC minted by the devnet's Circle account, so a test measures its own balance changes. */
export async function fundedAgent(s: Stack, label: string, usdc = 100): Promise<{ key: Hex; address: Address }> {
  const agent = devnetKey(`test:agent:${label}:${Date.now()}`);
  const circle = s.wallet(s.deployment.accounts.circle!.privateKey);
  const hash = await circle.writeContract({
    address: getAddress(s.addr("usdc")),
    abi: fiatTokenV2Abi,
    functionName: "mint",
    args: [agent.address, parseUnits(String(usdc), 6)],
  });
  await s.client.waitForTransactionReceipt({ hash });
  return { key: agent.privateKey, address: agent.address };
}

/** The devnet USDC balance of `account` at the chain's head (what a payment moved). */
export const usdcOf = (s: Stack, account: Address): Promise<bigint> =>
  s.client.readContract({
    address: getAddress(s.addr("usdc")),
    abi: fiatTokenV2Abi,
    functionName: "balanceOf",
    args: [account],
    blockTag: "latest",
  }) as Promise<bigint>;

/** A signed exact-EVM payment header for `requirements`, with the authorization fields given. */
export async function paymentHeader(
  key: Hex,
  requirements: any,
  over: { value?: bigint; validBefore?: bigint; nonce?: Hex } = {},
) {
  const account = privateKeyToAccount(key);
  const now = BigInt(Math.floor(Date.now() / 1000));
  const authorization = {
    from: account.address,
    to: getAddress(requirements.payTo),
    value: over.value ?? BigInt(requirements.amount),
    validAfter: now - 600n,
    validBefore: over.validBefore ?? now + 300n,
    nonce: over.nonce ?? toHex(crypto.getRandomValues(new Uint8Array(32))),
  };
  const signature = await account.signTypedData({
    domain: {
      name: requirements.extra.name,
      version: requirements.extra.version,
      chainId: 8453,
      verifyingContract: getAddress(requirements.asset),
    },
    types: {
      TransferWithAuthorization: [
        { name: "from", type: "address" },
        { name: "to", type: "address" },
        { name: "value", type: "uint256" },
        { name: "validAfter", type: "uint256" },
        { name: "validBefore", type: "uint256" },
        { name: "nonce", type: "bytes32" },
      ],
    },
    primaryType: "TransferWithAuthorization",
    message: authorization,
  });
  return encodePaymentSignatureHeader({
    x402Version: 2,
    accepted: requirements,
    payload: {
      signature,
      authorization: {
        ...authorization,
        value: authorization.value.toString(),
        validAfter: authorization.validAfter.toString(),
        validBefore: authorization.validBefore.toString(),
      },
    },
  } as never);
}
