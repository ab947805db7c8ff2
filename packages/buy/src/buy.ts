/**
 * `kusd-buy`: an agent buys a paid artifact and verifies it before printing it.
 *
 *   KUSD_AGENT_KEY=0x… kusd-buy reserves --gateway <base_url> --max-usd 0.25 --binding <site>/api/por/signer-registry --operator <address>
 *   KUSD_AGENT_KEY=0x… kusd-buy instant-read --chain ethereum --address 0x… --gateway <base_url> --max-usd 29 --signer <address>
 *
 * The asset and network come from the gateway's descriptor and are printed; the spend limit
 * is the caller's. Exit 0 bought and verified, 1 bought but not verified, 2 usage, I/O or a
 * refused purchase (nothing is printed as trusted).
 */
import { parseArgs } from "node:util";
import {
  type Address,
  createPublicClient,
  erc20Abi,
  formatUnits,
  getAddress,
  type Hex,
  http,
  isAddress,
  isHex,
  parseUnits,
} from "viem";
import { buy, PurchaseError } from "./client.js";

export const BUY_USAGE = `Usage: kusd-buy <reserves|instant-read> --gateway <base URL> --max-usd <amount>
  (--binding <URL> --operator <address> | --signer <address>) [--chain base|ethereum --address <0x…>]
  [--key-env <VAR> (KUSD_AGENT_KEY)] [--rpc-url <URL>] [--json]

Buys a paid artifact over x402 v2 (USDC, EIP-3009) with the key in $KUSD_AGENT_KEY, never paying
more than --max-usd, and verifies it (SHA-256 of the signed bytes, EIP-191 signer, the signer
binding) before printing it.

  --gateway <URL>         the paid gateway (e.g. http://localhost:42069/paid)
  --max-usd <amount>      the most this purchase may cost
  --binding <URL> --operator <address>   trust the operator's signer binding, or
  --signer <address>      trust one signer
  --rpc-url <URL>         Base RPC: on a refused payment, print the payer's USDC balance
  --json                  print one JSON object
  -h, --help              print this help

Exit codes:
  0  bought and verified
  1  bought, but the artifact did not verify (printed as NOT VERIFIED)
  2  usage error, I/O error, or a refused purchase (nothing was printed as trusted)
`;

export async function runBuy(
  argv: string[],
  env: Readonly<Record<string, string | undefined>>,
): Promise<{ exitCode: 0 | 1 | 2; output: string }> {
  let asset: { address: Address; decimals: number; symbol: string } | null = null;
  let rpcUrl: string | undefined;
  try {
    const { values, positionals } = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        gateway: { type: "string" },
        "max-usd": { type: "string" },
        binding: { type: "string" },
        operator: { type: "string" },
        signer: { type: "string" },
        chain: { type: "string" },
        address: { type: "string" },
        "key-env": { type: "string" },
        json: { type: "boolean" },
        "rpc-url": { type: "string" },
        help: { type: "boolean", short: "h" },
      },
    });
    if (values.help) return { exitCode: 0, output: BUY_USAGE };
    rpcUrl = values["rpc-url"];
    const what = positionals[0];
    if (what !== "reserves" && what !== "instant-read") throw new Error("say what to buy: reserves or instant-read");
    if (!values.gateway) throw new Error("--gateway is required");
    if (!values["max-usd"] || !/^\d+(\.\d{1,6})?$/.test(values["max-usd"]))
      throw new Error("--max-usd is required: the most this purchase may cost, in USD");
    const keyVar = values["key-env"] ?? "KUSD_AGENT_KEY";
    const key = env[keyVar];
    if (!key || !isHex(key) || key.length !== 66)
      throw new Error(`${keyVar} must hold the paying account's private key`);
    const addr = (v: string | undefined, name: string) => {
      if (!v || !isAddress(v)) throw new Error(`${name} must be an address`);
      return getAddress(v);
    };
    const trust = values.signer
      ? { signer: addr(values.signer, "--signer") }
      : { binding: values.binding ?? "", operator: addr(values.operator, "--operator") };
    if (!values.signer && !values.binding)
      throw new Error("give --binding and --operator, or --signer, to verify what is bought");
    const gateway = values.gateway.replace(/\/$/, "");
    const descriptor = (await (await fetch(`${gateway}/openapi.json`)).json()) as {
      "x-x402": { network: `${string}:${string}`; asset: { address: Address; decimals: number; symbol: string } };
    };
    const x = descriptor["x-x402"];
    asset = x.asset;
    const limit = {
      network: x.network,
      asset: getAddress(x.asset.address),
      maxAmount: parseUnits(values["max-usd"], x.asset.decimals),
    };
    const purchase = await buy({
      url: `${gateway}/${what}`,
      method: what === "reserves" ? "GET" : "POST",
      body: what === "instant-read" ? { chain: values.chain ?? "base", address: values.address } : undefined,
      privateKey: key as Hex,
      limit,
      trust,
    });
    const result = {
      paid: `${values["max-usd"]} USD cap in ${x.asset.symbol} ${limit.asset} on ${x.network}`,
      settlement: purchase.settlement,
      verified: purchase.verification.verified,
      checks: purchase.verification.checks,
      artifact: purchase.artifact,
    };
    const output = values.json
      ? `${JSON.stringify(result, null, 2)}\n`
      : `${purchase.verification.checks.map((c) => `${c.ok ? "ok  " : "FAIL"} ${c.name}${c.detail ? `: ${c.detail}` : ""}`).join("\n")}\nsettled in ${purchase.settlement?.transaction ?? "?"}\n${purchase.verification.verified ? "VERIFIED" : "NOT VERIFIED"}\n${JSON.stringify(purchase.artifact, null, 2)}\n`;
    return { exitCode: purchase.verification.verified ? 0 : 1, output };
  } catch (e) {
    if (e instanceof PurchaseError && asset)
      return { exitCode: 2, output: `error: ${await explainRefusal(e, asset, rpcUrl)}\n` };
    const detail = e instanceof PurchaseError ? ` ${JSON.stringify(e.details.body ?? {})}` : "";
    return { exitCode: 2, output: `error: ${(e as Error).message}${detail}\n${BUY_USAGE}` };
  }
}

/** A refused purchase in plain words: both amounts, the payer's balance when it can be read, and what to do. */
export async function explainRefusal(
  e: PurchaseError,
  asset: { address: Address; decimals: number; symbol: string },
  rpcUrl?: string,
): Promise<string> {
  const amount = (v: bigint) => `${formatUnits(v, asset.decimals)} ${asset.symbol}`;
  const { price, maxAmount, payer } = e.details;
  const lines = [e.message];
  if (price !== undefined && maxAmount !== undefined && price > maxAmount) {
    lines.push(`  price ${amount(price)}, your --max-usd allows ${amount(maxAmount)}: raise --max-usd to buy`);
    return lines.join("\n");
  }
  if (price !== undefined) lines.push(`  price ${amount(price)}`);
  if (payer) {
    let balance = "unknown (pass --rpc-url to read it)";
    if (rpcUrl) {
      const held = await createPublicClient({ transport: http(rpcUrl, { timeout: 10_000 }) })
        .readContract({ address: asset.address, abi: erc20Abi, functionName: "balanceOf", args: [payer] })
        .catch(() => null);
      balance = held === null ? `unreadable from ${rpcUrl}` : amount(held);
    }
    lines.push(`  payer ${payer} holds ${balance}`);
    if (e.details.status === 402)
      lines.push(
        `  if it cannot cover the price, fund it (on the devnet: npm run devnet:fund -- ${payer} 10) and run this again`,
      );
  }
  if (e.details.body !== undefined) lines.push(`  the gateway said: ${JSON.stringify(e.details.body)}`);
  return lines.join("\n");
}
