/**
 * Live subscriptions that retract, over server-sent events and over WebSocket (graphql-ws on
 * the API's own port): a mint, a redemption, a registry violation (a WETH transfer out of a
 * listed account) and a MINTER_ROLE grant are sent on the shared devnet, each stream says
 * DETECTED with what the transaction receipts say, then a reorg (snapshot and revert) removes them
 * and every stream says RETRACTED for the same item.
 */
import { request } from "node:http";
import { MINTER_ROLE } from "@kusd/core";
import { and, eq } from "@ponder/client";
import {
  type Address,
  encodeFunctionData,
  erc20Abi,
  getAddress,
  type Hash,
  type Hex,
  maxUint256,
  parseEther,
  parseEventLogs,
  parseUnits,
  type TransactionReceipt,
} from "viem";
import { afterAll, describe, expect, it } from "vitest";
import { fiatTokenV2Abi, kusdAbi, kusdpsmAbi, weth9Abi } from "../../abis/index.js";
import { devnetKey } from "../../devnet/keys.js";
import { type Subscription, sseSubscriptions, wsOnce, wsSubscriptions } from "../helpers/graphql-streams.js";
import { sendAs as sendAsOn } from "../helpers/impersonate.js";
import { stack } from "../helpers/stack.js";

const s = stack();
const d = s.deployment;
const httpUrl = `${s.indexerUrl}/graphql`;
const wsUrl = httpUrl.replace(/^http/, "ws");
/** What the test swaps: USDC in for the mint (6 decimals), kUSD in for the redemption (18). */
const USDC_IN = parseUnits("250", 6);
const KUSD_IN = parseEther("1");
const closers: (() => unknown)[] = [];
afterAll(async () => {
  for (const close of closers) await close();
});

const SWAP = "kind swap { id txHash direction psm { key } user { address } usdcAmount kusdAmount blockNumber }";

/**
 * The five streams, each filtered so that it should carry exactly one of the test's items (the
 * mint is about 250 kUSD, the redemption exactly KUSD_IN), and one whose threshold excludes them.
 */
function subscriptions(fromBlock: string, hedge: Address): Record<string, Subscription> {
  return {
    mints: {
      query: `subscription($from: BigInt) { psmSwaps(direction: mint, psm: [psmMint], minKusd: "${parseEther("100")}", fromBlock: $from) { ${SWAP} } }`,
      variables: { from: fromBlock },
      field: "psmSwaps",
    },
    redemptions: {
      query: `subscription($from: BigInt) { redemptions(minKusd: "${KUSD_IN}", fromBlock: $from) { ${SWAP} } }`,
      variables: { from: fromBlock },
      field: "redemptions",
    },
    largerRedemptions: {
      query: `subscription($from: BigInt) { redemptions(minKusd: "${KUSD_IN + 1n}", fromBlock: $from) { ${SWAP} } }`,
      variables: { from: fromBlock },
      field: "redemptions",
    },
    transfers: {
      query: `subscription($from: BigInt, $hedge: String) { registryTransfers(account: $hedge, tokenSymbol: "WETH", fromBlock: $from) {
        kind transfer { id txHash tokenSymbol decimals from to amount classification blockNumber } } }`,
      variables: { from: fromBlock, hedge },
      field: "registryTransfers",
    },
    roles: {
      query: `subscription($from: BigInt) { roleEvents(contractKey: "kUSD", roleName: "MINTER_ROLE", granted: true, fromBlock: $from) {
        kind roleEvent { id txHash account granted role blockNumber } } }`,
      variables: { from: fromBlock },
      field: "roleEvents",
    },
    violations: {
      query: `subscription($from: BigInt) { violations(fromBlock: $from) { kind violation { id txHash from to amount tokenSymbol blockNumber } } }`,
      variables: { from: fromBlock },
      field: "violations",
    },
  };
}

const ok = async (hash: Hash) => {
  const receipt = await s.client.waitForTransactionReceipt({ hash });
  expect(receipt.status).toBe("success");
  return receipt;
};

const sendAs = (from: Address, to: Address, data: Hex) => sendAsOn(s.client, from, to, data);

/** The sum of `token` Transfer values in a receipt that match `which`. */
function transferred(receipt: TransactionReceipt, token: Address, which: (from: Address, to: Address) => boolean) {
  return parseEventLogs({ abi: erc20Abi, eventName: "Transfer", logs: receipt.logs })
    .filter((l) => getAddress(l.address) === getAddress(token) && which(l.args.from, l.args.to))
    .reduce((sum, l) => sum + l.args.value, 0n);
}

/** What the test sends: one item for each stream. */
async function sendItems() {
  const usdc = s.addr("usdc");
  const kusd = s.addr("kUSD");
  const psm = s.addr("psmMint");
  // A mint by a fresh account: USDC from the devnet's issuer, then swapStableForKUSD.
  const minter = devnetKey("test:live-minter");
  await s.client.request({
    method: "anvil_setBalance" as never,
    params: [minter.address, "0x3635C9ADC5DEA00000"] as never,
  });
  const circle = s.wallet(d.accounts.circle!.privateKey);
  const wallet = s.wallet(minter.privateKey);
  await ok(
    await circle.writeContract({
      address: usdc,
      abi: fiatTokenV2Abi,
      functionName: "mint",
      args: [minter.address, USDC_IN],
    }),
  );
  await ok(
    await wallet.writeContract({
      address: usdc,
      abi: fiatTokenV2Abi,
      functionName: "approve",
      args: [psm, maxUint256],
    }),
  );
  const mint = await ok(
    await wallet.writeContract({
      address: psm,
      abi: kusdpsmAbi,
      functionName: "swapStableForKUSD",
      args: [usdc, USDC_IN],
    }),
  );
  // A redemption of 1 kUSD by the operator.
  const operator = s.wallet(d.accounts.operator!.privateKey);
  await ok(
    await operator.writeContract({ address: kusd, abi: kusdAbi, functionName: "approve", args: [psm, KUSD_IN] }),
  );
  const redemption = await ok(
    await operator.writeContract({
      address: psm,
      abi: kusdpsmAbi,
      functionName: "swapKUSDForStable",
      args: [usdc, KUSD_IN],
    }),
  );
  // WETH out of a listed account to a stranger: a registry transfer classified as a violation.
  const hedge = s.wallet(d.accounts.hedgeWatchOnly!.privateKey);
  const stranger = devnetKey("test:live-stranger").address;
  const wethOut = parseEther("0.01");
  const violation = await ok(
    await hedge.writeContract({
      address: s.addr("weth"),
      abi: weth9Abi,
      functionName: "transfer",
      args: [stranger, wethOut],
    }),
  );
  // MINTER_ROLE on kUSD granted by kUSD's admin (the indexed role holder, impersonated).
  const [admin] = await s.db
    .select()
    .from(s.schema.roleHolder)
    .where(
      and(
        eq(s.schema.roleHolder.contractKey, "kUSD"),
        eq(s.schema.roleHolder.roleName, "DEFAULT_ADMIN_ROLE"),
        eq(s.schema.roleHolder.active, true),
      ),
    );
  const grant = await sendAs(
    getAddress(admin!.account),
    kusd,
    encodeFunctionData({ abi: kusdAbi, functionName: "grantRole", args: [MINTER_ROLE, stranger] }),
  );
  return { mint, redemption, violation, wethOut, stranger, grant, minter: minter.address };
}

describe("live subscriptions over SSE and WebSocket", () => {
  it("answers over WebSocket as over HTTP, refuses what HTTP refuses with the same codes, and upgrades only /graphql", async () => {
    const overHttp = async (query: string) =>
      (await (
        await fetch(httpUrl, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ query }),
        })
      ).json()) as { data?: unknown; errors?: { extensions?: { code?: string } }[] };
    const codes = (r: { errors?: { extensions?: unknown }[] }) =>
      r.errors?.map((e) => (e.extensions as { code?: string } | undefined)?.code);
    const plain = "{ psms { key address } }";
    expect((await wsOnce(wsUrl, plain)).data).toEqual((await overHttp(plain)).data);
    // Armor's alias limit (a validation rule) and the nesting scan (a parse step), as over HTTP.
    const aliases = `{ ${Array.from({ length: 16 }, (_, i) => `a${i}: psms { key }`).join(" ")} }`;
    const nested = `{ psms(x: ${"[".repeat(70)}${"]".repeat(70)}) { key } }`;
    for (const [query, code] of [
      [aliases, "ALIAS_LIMIT"],
      [nested, "NESTING_LIMIT"],
    ] as const) {
      const ws = await wsOnce(wsUrl, query);
      expect(codes(ws)).toEqual([code]);
      expect(codes(ws)).toEqual(codes(await overHttp(query)));
    }
    const bad = await wsOnce(wsUrl, `subscription { registryTransfers(account: "0xnope") { kind } }`);
    expect(codes(bad)).toEqual(["BAD_USER_INPUT"]);
    // Any other path, or an upgrade to something else, is answered in the API's JSON error shape.
    expect(await refusedUpgrade(`${s.indexerUrl}/api/stats`, "websocket")).toMatchObject({
      status: 404,
      body: { error: { code: "not_found" } },
    });
    expect(await refusedUpgrade(httpUrl, "h2c")).toMatchObject({
      status: 400,
      body: { error: { code: "bad_request" } },
    });
  });

  it("says DETECTED for each item with what its receipt says, and RETRACTED for it after a reorg, on every stream", async () => {
    const start = await s.caughtUp();
    const hedge = d.accounts.hedgeWatchOnly!.address;
    // From the next block, explicitly: a stream started "from now" would count a block indexed
    // before its first poll as already there.
    const subs = subscriptions(String(start + 1), hedge);
    const sse = await sseSubscriptions(httpUrl, subs);
    closers.push(sse.close);
    const ws = await wsSubscriptions(wsUrl, subs);
    closers.push(ws.close);
    const transports = { sse: sse.streams, ws: ws.streams };

    const snapshot = (await s.client.request({ method: "evm_snapshot" as never })) as Hex;
    const sent = await sendItems();
    const expected = {
      mints: {
        txHash: sent.mint.transactionHash,
        direction: "mint",
        psm: { key: "psmMint" },
        user: { address: getAddress(sent.minter) },
        usdcAmount: String(USDC_IN),
        // What the chain moved: the kUSD the minter received in that transaction.
        kusdAmount: String(transferred(sent.mint, s.addr("kUSD"), (_f, to) => to === getAddress(sent.minter))),
        blockNumber: String(sent.mint.blockNumber),
      },
      redemptions: {
        txHash: sent.redemption.transactionHash,
        direction: "redeem",
        kusdAmount: String(KUSD_IN),
        usdcAmount: String(
          transferred(sent.redemption, s.addr("usdc"), (_f, to) => to === getAddress(d.accounts.operator!.address)),
        ),
        blockNumber: String(sent.redemption.blockNumber),
      },
      transfers: {
        txHash: sent.violation.transactionHash,
        tokenSymbol: "WETH",
        decimals: 18,
        from: getAddress(hedge),
        to: getAddress(sent.stranger),
        amount: String(sent.wethOut),
        classification: "violation",
        blockNumber: String(sent.violation.blockNumber),
      },
      roles: {
        txHash: sent.grant.transactionHash,
        account: getAddress(sent.stranger),
        granted: true,
        role: MINTER_ROLE,
        blockNumber: String(sent.grant.blockNumber),
      },
      violations: {
        txHash: sent.violation.transactionHash,
        tokenSymbol: "WETH",
        from: getAddress(hedge),
        amount: String(sent.wethOut),
        blockNumber: String(sent.violation.blockNumber),
      },
    };
    expect(BigInt(expected.mints.kusdAmount)).toBeGreaterThan(0n);
    expect(BigInt(expected.redemptions.usdcAmount)).toBeGreaterThan(0n);
    expect(parseEventLogs({ abi: kusdAbi, eventName: "RoleGranted", logs: sent.grant.logs })).toHaveLength(1);

    const item = (e: any) => e.swap ?? e.transfer ?? e.roleEvent ?? e.violation;
    const detected: Record<string, any> = {};
    await Promise.all(
      Object.entries(transports).flatMap(([transport, streams]) =>
        Object.entries(expected).map(async ([name, want]) => {
          const e = await streams[name]!.waitFor(
            (e) => e.kind === "DETECTED" && item(e).txHash === want.txHash,
            `${transport} ${name} DETECTED`,
          );
          expect(item(e)).toMatchObject(want);
          detected[`${transport} ${name}`] = item(e);
        }),
      ),
    );
    // The same row on both transports.
    for (const name of Object.keys(expected)) expect(detected[`ws ${name}`]).toEqual(detected[`sse ${name}`]);

    // The reorg: back to before the first transaction, and a longer chain than the one it replaces.
    const removed = Number(sent.grant.blockNumber) - start;
    await s.reorgTo(snapshot, removed + 2);
    // The chain itself no longer has the transactions.
    await expect(s.client.getTransactionReceipt({ hash: sent.mint.transactionHash })).rejects.toThrow();
    await expect(s.client.getTransactionReceipt({ hash: sent.grant.transactionHash })).rejects.toThrow();

    await Promise.all(
      Object.entries(transports).flatMap(([transport, streams]) =>
        Object.entries(expected).map(async ([name, want]) => {
          const e = await streams[name]!.waitFor(
            (e) => e.kind === "RETRACTED" && item(e).txHash === want.txHash,
            `${transport} ${name} RETRACTED`,
          );
          expect(item(e)).toEqual(detected[`${transport} ${name}`]);
        }),
      ),
    );
    // The filters held: each stream carried its own item, once detected and once retracted.
    for (const [transport, streams] of Object.entries(transports)) {
      expect(streams.largerRedemptions!.items, `${transport} largerRedemptions`).toEqual([]);
      for (const [name, want] of Object.entries(expected)) {
        expect(
          streams[name]!.items.map((e) => [e.kind, item(e).txHash]),
          `${transport} ${name}`,
        ).toEqual([
          ["DETECTED", want.txHash],
          ["RETRACTED", want.txHash],
        ]);
      }
    }
  }, 60_000);
});

/** The status and JSON body of an upgrade request the server refuses. */
async function refusedUpgrade(url: string, protocol: string) {
  return new Promise<{ status: number; body: unknown }>((resolve, reject) => {
    const req = request(url, {
      headers: {
        connection: "Upgrade",
        upgrade: protocol,
        "sec-websocket-version": "13",
        "sec-websocket-key": "dGhlIHNhbXBsZSBub25jZQ==",
      },
    });
    req.on("response", async (res) => {
      let text = "";
      for await (const chunk of res) text += chunk;
      resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) });
    });
    req.on("upgrade", () => reject(new Error(`${url} upgraded to ${protocol}`)));
    req.on("error", reject);
    req.end();
  });
}
