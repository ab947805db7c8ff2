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
import { getAddress, isAddress, isHex, parseUnits, type Address, type Hex } from "viem";
import { buy, PurchaseError } from "./client.js";

export const BUY_USAGE = `Usage: kusd-buy <reserves|instant-read> --gateway <base URL> --max-usd <amount>
  (--binding <URL> --operator <address> | --signer <address>) [--chain base|ethereum --address <0x…>]
  [--key-env <VAR> (KUSD_AGENT_KEY)] [--json]
`;

export async function runBuy(argv: string[], env: NodeJS.ProcessEnv = process.env): Promise<{ exitCode: 0 | 1 | 2; output: string }> {
  try {
    const { values, positionals } = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        gateway: { type: "string" }, "max-usd": { type: "string" }, binding: { type: "string" }, operator: { type: "string" }, signer: { type: "string" },
        chain: { type: "string" }, address: { type: "string" }, "key-env": { type: "string" }, json: { type: "boolean" },
      },
    });
    const what = positionals[0];
    if (what !== "reserves" && what !== "instant-read") throw new Error("say what to buy: reserves or instant-read");
    if (!values.gateway) throw new Error("--gateway is required");
    if (!values["max-usd"] || !/^\d+(\.\d{1,6})?$/.test(values["max-usd"])) throw new Error("--max-usd is required: the most this purchase may cost, in USD");
    const keyVar = values["key-env"] ?? "KUSD_AGENT_KEY";
    const key = env[keyVar];
    if (!key || !isHex(key) || key.length !== 66) throw new Error(`${keyVar} must hold the paying account's private key`);
    const addr = (v: string | undefined, name: string) => {
      if (!v || !isAddress(v)) throw new Error(`${name} must be an address`);
      return getAddress(v);
    };
    const trust = values.signer ? { signer: addr(values.signer, "--signer") } : { binding: values.binding ?? "", operator: addr(values.operator, "--operator") };
    if (!values.signer && !values.binding) throw new Error("give --binding and --operator, or --signer, to verify what is bought");
    const gateway = values.gateway.replace(/\/$/, "");
    const descriptor = (await (await fetch(`${gateway}/openapi.json`)).json()) as { "x-x402": { network: `${string}:${string}`; asset: { address: Address; decimals: number; symbol: string } } };
    const x = descriptor["x-x402"];
    const limit = { network: x.network, asset: getAddress(x.asset.address), maxAmount: parseUnits(values["max-usd"], x.asset.decimals) };
    const purchase = await buy({
      url: `${gateway}/${what}`,
      method: what === "reserves" ? "GET" : "POST",
      body: what === "instant-read" ? { chain: values.chain ?? "base", address: values.address } : undefined,
      privateKey: key as Hex,
      limit,
      trust,
    });
    const result = { paid: `${values["max-usd"]} USD cap in ${x.asset.symbol} ${limit.asset} on ${x.network}`, settlement: purchase.settlement, verified: purchase.verification.verified, checks: purchase.verification.checks, artifact: purchase.artifact };
    const output = values.json
      ? `${JSON.stringify(result, null, 2)}\n`
      : `${purchase.verification.checks.map((c) => `${c.ok ? "ok  " : "FAIL"} ${c.name}${c.detail ? `: ${c.detail}` : ""}`).join("\n")}\nsettled in ${purchase.settlement?.transaction ?? "?"}\n${purchase.verification.verified ? "VERIFIED" : "NOT VERIFIED"}\n${JSON.stringify(purchase.artifact, null, 2)}\n`;
    return { exitCode: purchase.verification.verified ? 0 : 1, output };
  } catch (e) {
    const detail = e instanceof PurchaseError ? ` ${JSON.stringify(e.details.body ?? {})}` : "";
    return { exitCode: 2, output: `error: ${(e as Error).message}${detail}\n${BUY_USAGE}` };
  }
}
