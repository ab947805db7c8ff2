/**
 * The devnet USDC speaks EIP-3009 as Circle's FiatToken v2 does: what the x402 `exact`
 * scheme relies on. Authorizations are signed with viem, independently of the contract.
 */

import { type Address, domainSeparator, type Hex, keccak256, parseSignature, parseUnits, stringToHex } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { devnetKey } from "../../devnet/keys.js";
import { revertReason, startTestChain, type TestChain } from "../helpers/test-chain.js";

const owner = devnetKey("test:circle").address;
const payerKey = devnetKey("test:payer");
const payer = privateKeyToAccount(payerKey.privateKey);
const payee = devnetKey("test:payee").address;
const relayer = devnetKey("test:relayer").address;
const amount = parseUnits("0.25", 6);

let c: TestChain;
let USDC: Address;
let chainId: number;

const types = {
  TransferWithAuthorization: [
    { name: "from", type: "address" },
    { name: "to", type: "address" },
    { name: "value", type: "uint256" },
    { name: "validAfter", type: "uint256" },
    { name: "validBefore", type: "uint256" },
    { name: "nonce", type: "bytes32" },
  ],
} as const;

async function authorize(nonceLabel: string, validBefore = BigInt(c.d.now + 3600)) {
  const message = {
    from: payer.address,
    to: payee,
    value: amount,
    validAfter: 0n,
    validBefore,
    nonce: keccak256(stringToHex(nonceLabel)),
  };
  const signature = await payer.signTypedData({
    domain: { name: "USD Coin", version: "2", chainId, verifyingContract: USDC },
    types,
    primaryType: "TransferWithAuthorization",
    message,
  });
  return { message, signature };
}

const args = (m: Awaited<ReturnType<typeof authorize>>["message"]) =>
  [m.from, m.to, m.value, m.validAfter, m.validBefore, m.nonce] as const;
const vrs = (sig: Hex) => {
  const { v, r, s } = parseSignature(sig);
  return [Number(v), r, s] as const;
};
const usdcOf = (who: Address) => c.read<bigint>(USDC, "FiatTokenV2", "balanceOf", [who]);

beforeAll(async () => {
  c = await startTestChain();
  chainId = c.anvil.chainId;
  await c.d.setBalances([owner, relayer, payee], 10n ** 22n);
  USDC = await c.deploy("FiatTokenV2", owner, [owner]);
  await c.send(owner, USDC, "FiatTokenV2", "mint", [payer.address, parseUnits("100", 6)]);
});

afterAll(() => c?.stop());

describe("USDC (EIP-3009)", () => {
  it("has 6 decimals and the EIP-712 domain USD Coin / 2", async () => {
    expect(await c.read<number>(USDC, "FiatTokenV2", "decimals")).toBe(6);
    expect(await c.read<string>(USDC, "FiatTokenV2", "version")).toBe("2");
    expect(await c.read<Hex>(USDC, "FiatTokenV2", "DOMAIN_SEPARATOR")).toBe(
      domainSeparator({ domain: { name: "USD Coin", version: "2", chainId, verifyingContract: USDC } }),
    );
  });

  it("moves funds for a signed authorization (v,r,s form) sent by anyone, once", async () => {
    const { message, signature } = await authorize("nonce-1");
    const before = await usdcOf(payee);
    await c.send(relayer, USDC, "FiatTokenV2", "transferWithAuthorization", [...args(message), ...vrs(signature)]);
    expect((await usdcOf(payee)) - before).toBe(amount);
    expect(await c.read<boolean>(USDC, "FiatTokenV2", "authorizationState", [payer.address, message.nonce])).toBe(true);
    const replay = await revertReason(
      c.send(relayer, USDC, "FiatTokenV2", "transferWithAuthorization", [...args(message), ...vrs(signature)]),
    );
    expect(replay).toContain("authorization is used or canceled");
  });

  it("accepts the bytes-signature form", async () => {
    const { message, signature } = await authorize("nonce-2");
    await c.send(relayer, USDC, "FiatTokenV2", "transferWithAuthorization", [...args(message), signature]);
    expect(await c.read<boolean>(USDC, "FiatTokenV2", "authorizationState", [payer.address, message.nonce])).toBe(true);
  });

  it("refuses an expired authorization and a tampered amount", async () => {
    const expired = await authorize("nonce-3", BigInt(c.d.now - 10));
    expect(
      await revertReason(
        c.send(relayer, USDC, "FiatTokenV2", "transferWithAuthorization", [
          ...args(expired.message),
          expired.signature,
        ]),
      ),
    ).toContain("expired");
    const ok = await authorize("nonce-4");
    const tampered = { ...ok.message, value: ok.message.value * 2n };
    expect(
      await revertReason(
        c.send(relayer, USDC, "FiatTokenV2", "transferWithAuthorization", [...args(tampered), ok.signature]),
      ),
    ).toContain("invalid signature");
  });

  it("lets only the payee use receiveWithAuthorization", async () => {
    const message = {
      from: payer.address,
      to: payee,
      value: amount,
      validAfter: 0n,
      validBefore: BigInt(c.d.now + 3600),
      nonce: keccak256(stringToHex("nonce-5")),
    };
    const signature = await payer.signTypedData({
      domain: { name: "USD Coin", version: "2", chainId, verifyingContract: USDC },
      types: { ReceiveWithAuthorization: types.TransferWithAuthorization },
      primaryType: "ReceiveWithAuthorization",
      message,
    });
    expect(
      await revertReason(
        c.send(relayer, USDC, "FiatTokenV2", "receiveWithAuthorization", [...args(message), signature]),
      ),
    ).toContain("caller must be the payee");
    await c.send(payee, USDC, "FiatTokenV2", "receiveWithAuthorization", [...args(message), signature]);
  });

  it("refuses an authorization the payer cancelled", async () => {
    const { message, signature } = await authorize("nonce-6");
    const cancel = await payer.signTypedData({
      domain: { name: "USD Coin", version: "2", chainId, verifyingContract: USDC },
      types: {
        CancelAuthorization: [
          { name: "authorizer", type: "address" },
          { name: "nonce", type: "bytes32" },
        ],
      },
      primaryType: "CancelAuthorization",
      message: { authorizer: payer.address, nonce: message.nonce },
    });
    await c.send(relayer, USDC, "FiatTokenV2", "cancelAuthorization", [payer.address, message.nonce, ...vrs(cancel)]);
    expect(
      await revertReason(
        c.send(relayer, USDC, "FiatTokenV2", "transferWithAuthorization", [...args(message), signature]),
      ),
    ).toContain("used or canceled");
  });
});
