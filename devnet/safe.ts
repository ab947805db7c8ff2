/** Signs and submits OperatorSafe transactions the way Safe tooling does (SafeTx EIP-712 hash). */
import { type Address, type Hex, hashTypedData, zeroAddress } from "viem";
import { privateKeyToAccount } from "viem/accounts";

export const SAFE_TX_TYPES = {
  SafeTx: [
    { name: "to", type: "address" },
    { name: "value", type: "uint256" },
    { name: "data", type: "bytes" },
    { name: "operation", type: "uint8" },
    { name: "safeTxGas", type: "uint256" },
    { name: "baseGas", type: "uint256" },
    { name: "gasPrice", type: "uint256" },
    { name: "gasToken", type: "address" },
    { name: "refundReceiver", type: "address" },
    { name: "nonce", type: "uint256" },
  ],
} as const;

export function safeTxHash(args: {
  chainId: number;
  safe: Address;
  to: Address;
  value: bigint;
  data: Hex;
  nonce: bigint;
}): Hex {
  return hashTypedData({
    domain: { chainId: args.chainId, verifyingContract: args.safe },
    types: SAFE_TX_TYPES,
    primaryType: "SafeTx",
    message: {
      to: args.to,
      value: args.value,
      data: args.data,
      operation: 0,
      safeTxGas: 0n,
      baseGas: 0n,
      gasPrice: 0n,
      gasToken: zeroAddress,
      refundReceiver: zeroAddress,
      nonce: args.nonce,
    },
  });
}

/** Concatenated 65-byte signatures of `hash`, ordered by signer address as the Safe requires. */
export async function signSafeTx(hash: Hex, privateKeys: Hex[]): Promise<Hex> {
  const accounts = privateKeys.map((k) => privateKeyToAccount(k));
  accounts.sort((a, b) => (BigInt(a.address) < BigInt(b.address) ? -1 : 1));
  const sigs = await Promise.all(accounts.map((a) => a.sign({ hash })));
  return `0x${sigs.map((s) => s.slice(2)).join("")}`;
}
