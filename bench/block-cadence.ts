/**
 * Base's cadence on a devnet, for the benches that load the API while the chain moves: a block
 * every `seconds` (anvil's interval mining), each with one PSM swap in it. The arbitrageur gets
 * USDC from Circle's key, then mints 1 kUSD and redeems 1 kUSD in turn, so its balances hold for
 * hours. `stop` ends the swaps and puts the devnet back to mining each transaction at once.
 */
import { createPublicClient, createWalletClient, type Hex, http, maxUint256, parseUnits } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { fiatTokenV2Abi, kusdAbi, kusdpsmAbi } from "../abis/index.js";
import { devnetChain } from "../devnet/chains.js";
import type { Deployment } from "../devnet/deployment.js";

export type BlockCadence = {
  /** Swaps mined so far. */
  swaps(): number;
  /** Swaps that failed (their error is printed once). */
  failures(): number;
  stop(): Promise<void>;
};

export async function swapEveryBlock(d: Deployment, o: { seconds?: number } = {}): Promise<BlockCadence> {
  const rpcUrl = d.chains.base.rpcUrl;
  const chain = devnetChain(8453, rpcUrl);
  const client = createPublicClient({ chain, transport: http(rpcUrl), pollingInterval: 50 });
  const wallet = (key: Hex) =>
    createWalletClient({ account: privateKeyToAccount(key), chain, transport: http(rpcUrl) });
  const c = d.chains.base.contracts;
  const usdc = c.usdc!.address;
  const psm = c.psmMint!.address;
  const circle = wallet(d.accounts.circle!.privateKey);
  const arb = wallet(d.accounts.arbitrageur!.privateKey);
  const mined = async (hash: Promise<Hex>) => {
    const receipt = await client.waitForTransactionReceipt({ hash: await hash });
    if (receipt.status !== "success") throw new Error(`transaction ${receipt.transactionHash} reverted`);
  };
  // Set up while each transaction is still mined at once.
  await mined(
    circle.writeContract({
      address: usdc,
      abi: fiatTokenV2Abi,
      functionName: "mint",
      args: [arb.account.address, parseUnits("100000", 6)],
    }),
  );
  await mined(
    arb.writeContract({ address: usdc, abi: fiatTokenV2Abi, functionName: "approve", args: [psm, maxUint256] }),
  );
  await mined(
    arb.writeContract({ address: c.kUSD!.address, abi: kusdAbi, functionName: "approve", args: [psm, maxUint256] }),
  );
  await mined(
    arb.writeContract({
      address: psm,
      abi: kusdpsmAbi,
      functionName: "swapStableForKUSD",
      args: [usdc, parseUnits("1000", 6)],
    }),
  );
  await client.request({ method: "evm_setAutomine" as never, params: [false] as never });
  await client.request({ method: "evm_setIntervalMining" as never, params: [o.seconds ?? 2] as never });

  let on = true;
  let swaps = 0;
  let failures = 0;
  const loop = (async () => {
    for (let i = 0; on; i++) {
      const swap =
        i % 2 === 0
          ? arb.writeContract({
              address: psm,
              abi: kusdpsmAbi,
              functionName: "swapKUSDForStable",
              args: [usdc, parseUnits("1", 18)],
            })
          : arb.writeContract({
              address: psm,
              abi: kusdpsmAbi,
              functionName: "swapStableForKUSD",
              args: [usdc, parseUnits("1", 6)],
            });
      try {
        await mined(swap);
        swaps++;
      } catch (e) {
        if (failures++ === 0) console.error(`[cadence] a swap failed: ${(e as Error).message.split("\n")[0]}`);
        await new Promise((r) => setTimeout(r, 1_000));
      }
    }
  })();
  return {
    swaps: () => swaps,
    failures: () => failures,
    async stop() {
      on = false;
      await loop;
      await client.request({ method: "evm_setIntervalMining" as never, params: [0] as never });
      await client.request({ method: "evm_setAutomine" as never, params: [true] as never });
    },
  };
}
