/**
 * `npm run devnet:fund -- <address> [usdc]`: mints devnet USDC (default 10) to an address on the
 * running devnet, e.g. an agent that will pay for GET /reserves with kusd-buy. The payer needs no
 * ETH: an x402 payment is an EIP-3009 authorization, and the facilitator pays the gas.
 * Exit 0 funded, 2 usage error or no devnet running.
 */

import { resolve } from "node:path";
import { fileURLToPath } from "node:url";
import {
  type Address,
  createPublicClient,
  createWalletClient,
  formatUnits,
  getAddress,
  http,
  isAddress,
  parseUnits,
} from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { fiatTokenV2Abi } from "../abis/index.js";
import { devnetChain } from "./chains.js";
import { deploymentPath, readDeployment } from "./deployment.js";

export const FUND_USAGE = `Usage: npm run devnet:fund -- <address> [usdc (10)]

Mints devnet USDC to <address> on the devnet that npm start (or npm run devnet) is running,
as found in $DEVNET_DEPLOYMENT (default devnet/deployment.json). No ETH is needed to pay over
x402: the payment is a signed USDC authorization and the facilitator pays the gas.

Exit codes: 0 funded, 2 usage error or no devnet running
`;

export type FundRequest = { address: Address; usdc: string } | { help: true };

export function parseFundArgs(argv: string[]): FundRequest {
  if (argv.includes("--help") || argv.includes("-h")) return { help: true };
  const [address, usdc = "10", ...rest] = argv;
  if (!address) throw new Error("missing the address to fund");
  if (rest.length) throw new Error(`unexpected arguments: ${rest.join(" ")}`);
  if (!isAddress(address)) throw new Error(`not an address (or a wrong checksum): ${address}`);
  if (!/^\d{1,9}(\.\d{1,6})?$/.test(usdc) || Number(usdc) <= 0)
    throw new Error(`the amount is a positive number of USDC (up to 6 decimals), got ${usdc}`);
  return { address: getAddress(address), usdc };
}

async function main(): Promise<number> {
  let request: FundRequest;
  try {
    request = parseFundArgs(process.argv.slice(2));
  } catch (e) {
    process.stdout.write(`error: ${(e as Error).message}\n${FUND_USAGE}`);
    return 2;
  }
  if ("help" in request) {
    process.stdout.write(FUND_USAGE);
    return 0;
  }
  const file = process.env.DEVNET_DEPLOYMENT ?? deploymentPath();
  let deployment: ReturnType<typeof readDeployment>;
  try {
    deployment = readDeployment(file);
  } catch {
    process.stdout.write(
      `error: no devnet deployment at ${file}: start the devnet first (npm start, or npm run devnet)\n`,
    );
    return 2;
  }
  const { rpcUrl, contracts } = deployment.chains.base;
  const chain = devnetChain(deployment.chains.base.chainId, rpcUrl);
  // anvil mines at once: poll for the receipt every 50 ms, not viem's default 4 s.
  const client = createPublicClient({ chain, transport: http(rpcUrl), pollingInterval: 50 });
  const circle = createWalletClient({
    account: privateKeyToAccount(deployment.accounts.circle!.privateKey),
    chain,
    transport: http(rpcUrl),
  });
  const usdc = contracts.usdc!.address;
  try {
    const hash = await circle.writeContract({
      address: usdc,
      abi: fiatTokenV2Abi,
      functionName: "mint",
      args: [request.address, parseUnits(request.usdc, 6)],
    });
    await client.waitForTransactionReceipt({ hash });
    const balance = await client.readContract({
      address: usdc,
      abi: fiatTokenV2Abi,
      functionName: "balanceOf",
      args: [request.address],
    });
    process.stdout.write(
      `minted ${request.usdc} USDC to ${request.address} (tx ${hash}); it now holds ${formatUnits(balance as bigint, 6)} USDC\n`,
    );
    return 0;
  } catch (e) {
    process.stdout.write(
      `error: the devnet at ${rpcUrl} did not take the mint: ${(e as Error).message.split("\n")[0]}\n  is it running? (npm start)\n`,
    );
    return 2;
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) process.exitCode = await main();
