/**
 * Process entry of `kusd-mcp` (bin/kusd-mcp.mjs): an MCP server on stdin/stdout for the agent
 * that starts it, proxying the kUSD API's MCP server over Streamable HTTP. Only the protocol goes
 * to stdout; usage errors and logs go to stderr.
 */
import { readFileSync } from "node:fs";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { MCP_USAGE, parseMcpArgs } from "./args.js";
import { localStatementVerifier, localTrust } from "./local-verify.js";
import { localReportVerifier } from "./local-verify-report.js";
import { PayingProxy, type Purse, proxyServer } from "./paying-proxy.js";
import { openPurse } from "./purse.js";

const { version } = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as {
  version: string;
};

let command: ReturnType<typeof parseMcpArgs>;
try {
  command = parseMcpArgs(process.argv.slice(2), process.env);
} catch (e) {
  process.stderr.write(`kusd-mcp: ${(e as Error).message}\n\n${MCP_USAGE}\n`);
  process.exit(2);
}
if (command.kind === "help") {
  process.stdout.write(`${MCP_USAGE}\n`);
  process.exit(0);
}
const { api, maxSpend, key, trust, keyEnv, network } = command;

/** One connection to the API's MCP server, made when first needed and again after a failure. */
let connection: Promise<Client> | null = null;
const upstream = () => {
  connection ??= (async () => {
    const client = new Client({ name: "kusd-mcp", version });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${api}/mcp`)));
    return client;
  })().catch((e: unknown) => {
    connection = null;
    throw new Error(`the kUSD API's MCP server at ${api}/mcp did not answer: ${(e as Error).message}`);
  });
  return connection;
};
let purse: Promise<Purse> | null = null;
const openedPurse = () => {
  purse ??= openPurse(api, maxSpend, key).catch((e: unknown) => {
    purse = null;
    throw e;
  });
  return purse;
};

const proxy = new PayingProxy({
  upstream,
  purse: openedPurse,
  trust: trust ? () => localTrust(api, trust) : null,
  latestStatement: async () => {
    const res = await fetch(`${api}/api/por/signed`);
    if (!res.ok)
      throw new Error(`GET ${api}/api/por/signed answered ${res.status}: ${(await res.text()).slice(0, 500)}`);
    return res.json();
  },
  keyEnv,
  verifyReport: localReportVerifier(api, network),
  statementVerifier: trust ? localStatementVerifier(api, trust, network) : null,
});
const server = proxyServer(proxy, upstream, version);
// The agent closing stdin ends the session: close the API connection so the process can exit.
server.onclose = () => {
  void connection?.then((c) => c.close()).catch(() => undefined);
};
await server.connect(new StdioServerTransport());
