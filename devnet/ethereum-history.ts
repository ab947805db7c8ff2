/**
 * The ethereum devnet chain: a few plain ERC-20 tokens with some transfers, the targets of
 * instant reads on `chain: "ethereum"`. Nothing of the operator lives here.
 */
import { parseUnits } from "viem";
import { loadArtifact } from "./artifacts.js";
import type { ContractRecord } from "./deployment.js";
import { type ChainDriver, encode } from "./driver.js";
import { ETHEREUM_PADDING_BLOCKS } from "./history.js";
import { devnetKey, userKey } from "./keys.js";
import { DAY, HISTORY_START } from "./timeline.js";

export const ETHEREUM_TOKENS = [
  { name: "Dai Stablecoin", symbol: "DAI", decimals: 18, supply: "5350000000" },
  { name: "Tether USD", symbol: "USDT", decimals: 6, supply: "78000000000" },
  { name: "ChainLink Token", symbol: "LINK", decimals: 18, supply: "1000000000" },
] as const;

export async function runEthereumHistory(d: ChainDriver, now: number) {
  const issuer = devnetKey("ethereum:token-issuer");
  await d.rpc("anvil_autoImpersonateAccount", [true]);
  await d.setBalances([issuer.address], 10n ** 22n);
  const { abi, bytecode } = loadArtifact("TestToken");
  const contracts: Record<string, ContractRecord> = {};
  d.at(HISTORY_START + 60);
  for (const t of ETHEREUM_TOKENS) {
    const receipt = await d.deploy(issuer.address, abi, bytecode, [
      t.name,
      t.symbol,
      t.decimals,
      parseUnits(t.supply, t.decimals),
      issuer.address,
    ]);
    const block = await d.client.getBlock({ blockNumber: receipt.blockNumber });
    contracts[t.symbol] = {
      address: receipt.contractAddress,
      block: Number(receipt.blockNumber),
      timestamp: Number(block.timestamp),
      artifact: "TestToken",
    };
  }
  // Some circulation, so supply is not all in one wallet.
  for (let i = 0; i < 12; i++) {
    d.at(HISTORY_START + (i + 1) * 14 * DAY);
    const t = ETHEREUM_TOKENS[i % ETHEREUM_TOKENS.length]!;
    await d.send({
      from: issuer.address,
      to: contracts[t.symbol]!.address,
      data: encode(abi, "transfer", [userKey(i).address, parseUnits(String(1000 * (i + 1)), t.decimals)]),
    });
  }
  d.at(now - ETHEREUM_PADDING_BLOCKS * d.blockTime - 300);
  const historyEndBlock = Number(await d.blockNumber());
  await d.mineEmpty(ETHEREUM_PADDING_BLOCKS);
  await d.rpc("anvil_autoImpersonateAccount", [false]);
  return { contracts, historyEndBlock };
}
