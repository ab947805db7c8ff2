/**
 * `kusd-doctor` against a fresh anvil chain (chain id 8453) where a TestToken, a PriceFeed and
 * a CREATE2-deployed TestToken are deployed a few blocks apart, plus a second chain (id 1) as
 * the ethereum RPC. Expected values come from the deployment receipts and direct reads.
 * Provider limits anvil does not have (pruned state, a capped eth_getLogs range) are played by
 * a client that refuses those requests the way real nodes do. The pure parts (verdicts, RPC
 * error classification, the table, the command line without an RPC) are unit-tested beside
 * them in clients/doctor/.
 */

import {
  type Address,
  concat,
  createPublicClient,
  custom,
  encodeDeployData,
  getAddress,
  getContractAddress,
  type Hex,
  http,
  type PublicClient,
  pad,
} from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runDoctorCli } from "../../clients/doctor/cli.js";
import {
  type DoctorFeed,
  type DoctorInput,
  type DoctorReport,
  type DoctorRow,
  runDoctor,
} from "../../clients/doctor/doctor.js";
import { loadArtifact } from "../../devnet/artifacts.js";
import { freePort } from "../helpers/ports.js";
import { startTestChain, type TestChain } from "../helpers/test-chain.js";

const DEPLOYER: Address = "0xD0C7000000000000000000000000000000000001";
const KEEPER: Address = "0xD0C7000000000000000000000000000000000002";
/** The deterministic CREATE2 deployer anvil ships with (Arachnid's proxy): a factory deployment. */
const CREATE2_DEPLOYER: Address = "0x4e59b44847b379578588920cA78FbF26c0b4956C";
const ETH_USD = 3_000_12345678n;

type Deployed = { address: Address; hash: Hex; block: number };

let base: TestChain;
let ethereum: TestChain;
let token: Deployed;
let feed: Deployed;
let viaFactory: Deployed;

async function deploy(artifact: string, args: readonly unknown[]): Promise<Deployed> {
  const { abi, bytecode } = loadArtifact(artifact);
  const receipt = await base.d.deploy(DEPLOYER, abi, bytecode, args);
  return { address: receipt.contractAddress, hash: receipt.transactionHash, block: Number(receipt.blockNumber) };
}

beforeAll(async () => {
  [base, ethereum] = await Promise.all([startTestChain(8453), startTestChain(1)]);
  await base.d.setBalances([DEPLOYER, KEEPER], 10n ** 24n);
  await base.d.mineEmpty(3);
  token = await deploy("TestToken", ["Test", "TT", 18, 10n ** 24n, DEPLOYER]);
  await base.d.mineEmpty(4);
  feed = await deploy("PriceFeed", [8, "ETH / USD", KEEPER]);
  await base.d.mineEmpty(2);
  await base.send(KEEPER, feed.address, "PriceFeed", "submit", [ETH_USD]);
  await base.d.mineEmpty(2);

  const { abi, bytecode } = loadArtifact("TestToken");
  const initCode = encodeDeployData({ abi, bytecode, args: ["Factory", "FT", 6, 1n, DEPLOYER] });
  const salt = pad("0x2a", { size: 32 });
  const receipt = await base.d.send({
    from: DEPLOYER,
    to: CREATE2_DEPLOYER,
    data: concat([salt, initCode]),
    gas: 8_000_000n,
  });
  viaFactory = {
    address: getContractAddress({ opcode: "CREATE2", from: CREATE2_DEPLOYER, salt, bytecode: initCode }),
    hash: receipt.transactionHash,
    block: Number(receipt.blockNumber),
  };
  await base.d.mineEmpty(3);
});

afterAll(async () => {
  await Promise.all([base?.stop(), ethereum?.stop()]);
});

const feedInput = (overrides: Partial<DoctorFeed> = {}): DoctorFeed => ({
  name: "ETH / USD",
  address: feed.address,
  expectDescription: /^ETH \/ USD$/,
  decimals: 8,
  source: "test deployment",
  maxAgeSeconds: 3600,
  ...overrides,
});

function input(overrides: Partial<DoctorInput> = {}): DoctorInput {
  return {
    chainIds: { base: 8453, ethereum: 1 },
    contracts: [
      {
        name: "TestToken",
        address: token.address,
        startBlock: token.block - 2,
        creationTx: token.hash,
        source: "two blocks early",
      },
      {
        name: "PriceFeed",
        address: feed.address,
        startBlock: feed.block,
        creationTx: feed.hash,
        source: "the deployment block",
      },
    ],
    feeds: [feedInput()],
    ethGetLogsBlockRange: null,
    anchorSigner: null,
    ...overrides,
  };
}

const cli = (doctorInput: DoctorInput, extra: string[] = []) =>
  runDoctorCli(
    ["--rpc-url", base.anvil.rpcUrl, "--ethereum-rpc-url", ethereum.anvil.rpcUrl, ...extra],
    {},
    async () => doctorInput,
  );

const client = (url: string) => createPublicClient({ transport: http(url) }) as PublicClient;

/** A client over `url` that lets `refuse` turn any request into the error a real node returns. */
function providerWith(
  url: string,
  refuse: (method: string, params: unknown[]) => { code: number; message: string } | null,
  seen: string[] = [],
): PublicClient {
  const real = client(url);
  const request = async ({ method, params }: { method: string; params?: unknown }) => {
    seen.push(method);
    const refusal = refuse(method, (params ?? []) as unknown[]);
    if (refusal) throw Object.assign(new Error(refusal.message), refusal);
    return real.request({ method, params } as never);
  };
  return createPublicClient({ transport: custom({ request }, { retryCount: 0 }) }) as PublicClient;
}

const rowOf = (report: DoctorReport, check: string, subject?: string): DoctorRow => {
  const row = report.rows.find((r) => r.check === check && (subject === undefined || r.subject === subject));
  if (!row) throw new Error(`no ${check} row for ${subject}: ${JSON.stringify(report.rows)}`);
  return row;
};

const doctor = (doctorInput: DoctorInput, baseClient = client(base.anvil.rpcUrl)) =>
  runDoctor(doctorInput, { base: baseClient, ethereum: client(ethereum.anvil.rpcUrl) });

describe("kusd-doctor on a correct configuration", () => {
  it("passes every check and exits 0", async () => {
    const { exitCode, output } = await cli(input(), ["--json"]);
    const report = JSON.parse(output) as DoctorReport;
    expect(exitCode, output).toBe(0);
    expect(report.ok).toBe(true);
    expect(report.rows.filter((r) => r.result !== "ok")).toEqual([]);
    // chain ids (2), code and deployment per contract (4), the feed, archive and getLogs range.
    expect(report.rows.map((r) => r.check)).toEqual([
      "chain id",
      "chain id",
      "code",
      "deployment block",
      "code",
      "deployment block",
      "feed",
      "archive state",
      "eth_getLogs range",
    ]);
    expect(rowOf(report, "deployment block", "TestToken").detail).toContain(`deployed at block ${token.block} `);
    expect(rowOf(report, "deployment block", "TestToken").detail).toContain("starts 2 blocks before the deployment");
    expect(rowOf(report, "deployment block", "PriceFeed").detail).toContain(`deployed at block ${feed.block} `);
    expect(rowOf(report, "feed").detail).toContain("answer 3000.12345678");
    expect(rowOf(report, "eth_getLogs range").detail).toContain("set KUSD_ETH_GET_LOGS_BLOCK_RANGE=");
    expect(report.recommended.ethGetLogsBlockRange).toBeGreaterThan(0);
    expect(report.requests).toBeGreaterThan(0);
  });

  it("prints a table with the verdict and the request count", async () => {
    const { exitCode, output } = await cli(input());
    expect(exitCode).toBe(0);
    const lines = output.trimEnd().split("\n");
    expect(lines[0]).toMatch(/^check\s+subject\s+result\s+detail$/);
    expect(lines.at(-1)).toMatch(/^READY: 9 ok, 0 failed, 0 warnings; \d+ RPC requests$/);
  });

  it("counts every request it makes", async () => {
    const seen: string[] = [];
    const report = await runDoctor(input(), {
      base: providerWith(base.anvil.rpcUrl, () => null, seen),
      ethereum: providerWith(ethereum.anvil.rpcUrl, () => null, seen),
    });
    expect(report.ok).toBe(true);
    expect(report.requests).toBe(seen.length);
  });

  it("accepts a factory (CREATE2) deployment whose receipt names no created contract", async () => {
    const report = await doctor(
      input({
        contracts: [
          {
            name: "Factory token",
            address: viaFactory.address,
            startBlock: viaFactory.block - 1,
            creationTx: viaFactory.hash,
            source: "test",
          },
        ],
      }),
    );
    const row = rowOf(report, "deployment block");
    expect(row.result, row.detail).toBe("ok");
    expect(row.detail).toContain(`deployed at block ${viaFactory.block} `);
    expect(row.detail).toContain("factory deployment");
  });

  it("finds the deployment block by bisection when no creation tx is known, in O(log head) calls", async () => {
    const seen: string[] = [];
    const contracts = [
      { name: "PriceFeed", address: feed.address, startBlock: feed.block - 5, creationTx: null, source: "test" },
    ];
    const report = await doctor(
      input({ contracts, feeds: [] }),
      providerWith(base.anvil.rpcUrl, () => null, seen),
    );
    const row = rowOf(report, "deployment block");
    expect(row.result, row.detail).toBe("ok");
    expect(row.detail).toContain(`deployed at block ${feed.block} (first block with code, by bisection`);
    expect(row.detail).toContain("starts 5 blocks before the deployment");
    const head = Number(await client(base.anvil.rpcUrl).getBlockNumber());
    // One eth_getCode for the code row, then one per halving of [0, head].
    expect(seen.filter((m) => m === "eth_getCode").length).toBeLessThanOrEqual(1 + Math.ceil(Math.log2(head + 1)));
  });

  it("warns, without failing, on a stale feed", async () => {
    const reader = client(base.anvil.rpcUrl);
    const head = await reader.getBlock();
    const round = await base.read<readonly bigint[]>(feed.address, "PriceFeed", "latestRoundData");
    const age = Number(head.timestamp - round[3]!);
    expect(age).toBeGreaterThan(1);
    const { exitCode, output } = await cli(input({ feeds: [feedInput({ maxAgeSeconds: age - 1 })] }), ["--json"]);
    const row = rowOf(JSON.parse(output), "feed");
    expect(exitCode).toBe(0);
    expect(row.result).toBe("warn");
    expect(row.detail).toContain(`stale: updated ${age} s before the head, more than ${age - 1} s`);
  });
});

describe("kusd-doctor on a wrong configuration", () => {
  it("fails a start block after the deployment, naming the shortfall", async () => {
    const contracts = [
      {
        name: "PriceFeed",
        address: feed.address,
        startBlock: feed.block + 3,
        creationTx: feed.hash,
        source: "a day too late",
      },
    ];
    const { exitCode, output } = await cli(input({ contracts }), ["--json"]);
    const row = rowOf(JSON.parse(output), "deployment block");
    expect(exitCode).toBe(1);
    expect(row.result).toBe("FAIL");
    expect(row.detail).toContain(`deployed at block ${feed.block} `);
    expect(row.detail).toContain(`start block ${feed.block + 3} would miss the first 3 blocks of history`);
    expect(row.detail).toContain("a day too late");
  });

  it("fails a creation tx that deployed something else", async () => {
    const contracts = [
      { name: "PriceFeed", address: feed.address, startBlock: feed.block, creationTx: token.hash, source: "test" },
    ];
    const row = rowOf(await doctor(input({ contracts, feeds: [] })), "deployment block");
    expect(row.result).toBe("FAIL");
    expect(row.detail).toContain(`did not deploy ${feed.address}: it created ${getAddress(token.address)}`);
  });

  it("fails a feed with the wrong description", async () => {
    const { exitCode, output } = await cli(input({ feeds: [feedInput({ expectDescription: "BTC / USD" })] }), [
      "--json",
    ]);
    const row = rowOf(JSON.parse(output), "feed");
    expect(exitCode).toBe(1);
    expect(row.result).toBe("FAIL");
    expect(row.detail).toContain('description() is "ETH / USD", expected "BTC / USD"');
  });

  it("fails a feed with the wrong decimals, and an address that is no feed", async () => {
    const report = await doctor(
      input({ feeds: [feedInput({ decimals: 18 }), feedInput({ name: "not a feed", address: token.address })] }),
    );
    expect(rowOf(report, "feed", "ETH / USD")).toMatchObject({
      result: "FAIL",
      detail: expect.stringContaining("decimals() is 8, expected 18"),
    });
    const notFeed = rowOf(report, "feed", "not a feed");
    expect(notFeed.result).toBe("FAIL");
    expect(notFeed.detail).toContain("description() failed");
    expect(notFeed.detail).toContain("latestRoundData() failed");
  });

  it("fails an RPC serving the wrong chain", async () => {
    // The ethereum RPC pointed at the Base chain: a classic copy-paste of URLs.
    const swapped = await runDoctorCli(
      ["--rpc-url", base.anvil.rpcUrl, "--ethereum-rpc-url", base.anvil.rpcUrl, "--json"],
      {},
      async () => input(),
    );
    expect(swapped.exitCode).toBe(1);
    expect(rowOf(JSON.parse(swapped.output), "chain id", "ethereum")).toMatchObject({
      result: "FAIL",
      detail: "eth_chainId 8453, expected 1: the URL serves another chain",
    });

    // A wrong Base chain: its contract checks would all fail for that one reason, so they are skipped.
    const wrongBase = await cli(input({ chainIds: { base: 10, ethereum: 1 } }), ["--json"]);
    const report = JSON.parse(wrongBase.output) as DoctorReport;
    expect(wrongBase.exitCode).toBe(1);
    expect(rowOf(report, "chain id", "base")).toMatchObject({
      result: "FAIL",
      detail: "eth_chainId 8453, expected 10: the URL serves another chain",
    });
    expect(report.rows.map((r) => r.check)).toEqual(["chain id", "chain id"]);
  });

  it("fails an address with no code", async () => {
    const empty: Address = "0x000000000000000000000000000000000000dEaD";
    const contracts = [{ name: "Ghost", address: empty, startBlock: 1, creationTx: null, source: "test" }];
    const { exitCode, output } = await cli(input({ contracts, feeds: [] }), ["--json"]);
    const report = JSON.parse(output) as DoctorReport;
    expect(exitCode).toBe(1);
    expect(rowOf(report, "code")).toMatchObject({
      result: "FAIL",
      detail: expect.stringContaining(`no code at ${empty}`),
    });
    expect(rowOf(report, "deployment block").result).toBe("FAIL");
  });

  it("fails without archive state, saying an archive node is required", async () => {
    const head = Number(await client(base.anvil.rpcUrl).getBlockNumber());
    // A full node keeps recent state only: historical eth_call fails as geth's does.
    const pruned = providerWith(base.anvil.rpcUrl, (method, params) =>
      method === "eth_call" && typeof params[1] === "string" && params[1].startsWith("0x") && Number(params[1]) < head
        ? { code: -32000, message: "missing trie node 5f3c2a9e1b (path ) <nil>" }
        : null,
    );
    const report = await doctor(input(), pruned);
    const row = rowOf(report, "archive state");
    expect(report.ok).toBe(false);
    expect(row.subject).toBe(`block ${token.block - 2}`);
    expect(row.result).toBe("FAIL");
    expect(row.detail).toContain("an archive node is required");
    expect(row.detail).toContain("missing trie node");
  });
});

describe("kusd-doctor's command line", () => {
  it("exits 2 with a one-line reason when the RPC is unreachable", async () => {
    const closed = `http://127.0.0.1:${await freePort()}`;
    for (const argv of [
      ["--rpc-url", closed],
      ["--rpc-url", base.anvil.rpcUrl, "--ethereum-rpc-url", closed],
    ]) {
      const { exitCode, output } = await runDoctorCli(argv, {}, async () => input());
      expect(exitCode, output).toBe(2);
      expect(output.trimEnd().split("\n")).toHaveLength(1);
      expect(output).toMatch(/^error: the (base|ethereum) RPC did not answer eth_chainId: /);
      expect(output).toContain(closed);
    }
  });

  it("takes the RPC URLs from the environment, and hands them to the configuration", async () => {
    let seen: NodeJS.ProcessEnv = {};
    const { exitCode } = await runDoctorCli(
      [],
      { PONDER_RPC_URL_8453: base.anvil.rpcUrl, KUSD_READ_RPC_URL_1: ethereum.anvil.rpcUrl },
      async (env) => {
        seen = env;
        return input();
      },
    );
    expect(exitCode).toBe(0);
    expect(seen.PONDER_RPC_URL_8453).toBe(base.anvil.rpcUrl);
    expect(seen.PONDER_RPC_URL_1).toBe(ethereum.anvil.rpcUrl);
  });
});

// Last: mines a long run of blocks, so the deployments above are no longer near the head.
describe("kusd-doctor's eth_getLogs range probe", () => {
  const CAP = 500;
  const capped = () =>
    providerWith(base.anvil.rpcUrl, (method, params) => {
      if (method !== "eth_getLogs") return null;
      const { fromBlock, toBlock } = params[0] as { fromBlock: Hex; toBlock: Hex };
      const span = Number(toBlock) - Number(fromBlock) + 1;
      return span > CAP ? { code: -32602, message: `query exceeds max block range ${CAP}` } : null;
    });

  beforeAll(async () => {
    await base.d.rpc("anvil_mine", ["0x4b0"]); // 1200 blocks
  });

  it("reports the largest accepted range as a recommendation when none is configured", async () => {
    const row = rowOf(await doctor(input(), capped()), "eth_getLogs range");
    expect(row.result).toBe("ok");
    expect(row.detail).toContain(`largest accepted range ${CAP} blocks`);
    expect(row.detail).toContain(`set KUSD_ETH_GET_LOGS_BLOCK_RANGE=${CAP}`);
    expect(row.detail).toContain(`query exceeds max block range ${CAP}`);
  });

  it("fails a configured range wider than the provider accepts, and passes one within it", async () => {
    const tooWide = rowOf(await doctor(input({ ethGetLogsBlockRange: 2_000 }), capped()), "eth_getLogs range");
    expect(tooWide.result).toBe("FAIL");
    expect(tooWide.detail).toContain(`configured 2000 > largest accepted range ${CAP} blocks`);
    // Between two probe sizes: the configured value itself is probed.
    const within = rowOf(await doctor(input({ ethGetLogsBlockRange: 400 }), capped()), "eth_getLogs range");
    expect(within.result).toBe("ok");
    expect(within.detail).toContain(`configured 400 ≤ largest accepted range ${CAP} blocks`);
  });
});
