/**
 * One registry violation caused on the devnet, rendered for people and delivered to every
 * destination's local receiver (Slack, PagerDuty, SMTP email, Discord, Telegram, a command):
 * each receiver checks the payload as its service would, and each names the sender's registry
 * role and label and the amount that was sent. The payloads are printed for the closing note.
 * Then a real redemption through `kusd-monitor --config`, to Slack and PagerDuty, taken away by a
 * reorg: Slack gets the retraction and PagerDuty a `resolve` for the incident's own dedup_key.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { formatEther, formatUnits, type Hex, parseEther, parseUnits } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { kusdAbi, kusdpsmAbi, weth9Abi } from "../../abis/index.js";
import { devnetKey } from "../../devnet/keys.js";
import type { MonitorMessage, Sink } from "../../packages/monitor/src/index.js";
import {
  commandSink,
  discordSink,
  emailSink,
  fetchRegistry,
  pagerDutySink,
  renderAlert,
  runMonitorCli,
  slackSink,
  telegramSink,
} from "../../packages/monitor/src/index.js";
import { startDiscordReceiver } from "../helpers/receivers/discord.js";
import type { Receiver } from "../helpers/receivers/http-receiver.js";
import { startPagerDutyReceiver } from "../helpers/receivers/pagerduty.js";
import { startSlackReceiver } from "../helpers/receivers/slack.js";
import { decodeQuotedPrintable, type SmtpReceiver, startSmtpReceiver, TEST_CERT } from "../helpers/receivers/smtp.js";
import { startTelegramReceiver } from "../helpers/receivers/telegram.js";
import { stack } from "../helpers/stack.js";

const s = stack();
const d = s.deployment;
const TOKEN = "123456:devnet-test-token";
const ROUTING_KEY = "R0UTINGKEY0000000000000000000000";
const creds = { user: "monitor", pass: "devnet-pass" };
const dir = mkdtempSync(join(tmpdir(), "kusd-monitor-destinations-"));

let slack: Receiver;
let pagerduty: Receiver;
let discord: Receiver;
let telegram: Receiver;
let smtp: SmtpReceiver;
beforeAll(async () => {
  [slack, pagerduty, discord, telegram] = await Promise.all([
    startSlackReceiver(),
    startPagerDutyReceiver(),
    startDiscordReceiver(),
    startTelegramReceiver(TOKEN),
  ]);
  smtp = await startSmtpReceiver(creds);
});
afterAll(async () => {
  await Promise.all([slack, pagerduty, discord, telegram, smtp].map((r) => r?.close()));
  rmSync(dir, { recursive: true, force: true });
});

describe("monitor destinations", () => {
  it("delivers one live violation to every destination in its service's format", async () => {
    const amount = parseEther("0.0123");
    const stranger = devnetKey(`test:destinations:${Date.now()}`).address;
    const from = d.accounts.hedgeWatchOnly!.address;
    const receipt = await s.client.waitForTransactionReceipt({
      hash: await s.wallet(d.accounts.hedgeWatchOnly!.privateKey).writeContract({
        address: s.addr("weth"),
        abi: weth9Abi,
        functionName: "transfer",
        args: [stranger, amount],
      }),
    });
    const block = Number(receipt.blockNumber);
    await s.caughtUp();
    // The item exactly as the monitor reads it from the violation feed.
    const page = (await (
      await fetch(`${s.indexerUrl}/api/por/accounts/violations?fromBlock=${block}&toBlock=${block}`)
    ).json()) as { violations: Array<Record<string, unknown> & { id: string; blockNumber: number }> };
    const item = page.violations.find((v) => v.txHash === receipt.transactionHash)!;
    expect(item).toBeDefined();
    const message: MonitorMessage = { type: "alert", kind: "violation", ...item, confirmations: 0 };

    // Independent of the renderer: the registry document's own entry for the sender.
    const doc = (await (await fetch(`${s.indexerUrl}/api/por/accounts`)).json()) as {
      registry: { entries: Array<{ statement: { address: string; role: string; label: string } }> };
    };
    const entry = doc.registry.entries.find((e) => e.statement.address.toLowerCase() === from.toLowerCase())!.statement;
    const amountText = `${formatEther(amount)} WETH`;

    const view = renderAlert(message, { registry: await fetchRegistry(s.indexerUrl), apiUrl: s.indexerUrl });
    expect(view.severity).toBe("critical");
    expect(view.lines).toContain(`From: ${from} (role: ${entry.role}, label "${entry.label}")`);
    expect(view.lines).toContain(`To: ${stranger} (not in the registry)`);

    const commandOut = join(dir, "command-stdin.json");
    const sinks: Sink[] = [
      slackSink({ url: `${slack.url}/services/T000/B000/XXXX` }),
      pagerDutySink({ url: `${pagerduty.url}/v2/enqueue`, routingKey: ROUTING_KEY, source: "kusd-devnet" }),
      emailSink({
        host: smtp.host,
        port: smtp.port,
        auth: creds,
        from: "kusd-monitor@example.org",
        to: "oncall@example.org",
        tls: { ca: TEST_CERT, servername: "localhost" },
      }),
      discordSink({ url: `${discord.url}/api/webhooks/1/token` }),
      telegramSink({ apiBase: telegram.url, token: TOKEN, chatId: -1001 }),
      commandSink({
        command: process.execPath,
        args: [
          "-e",
          `require("node:fs").writeFileSync(${JSON.stringify(commandOut)}, require("node:fs").readFileSync(0))`,
        ],
        timeoutMs: 10_000,
      }),
    ];
    for (const sink of sinks) expect([sink.type, await sink.deliver(view)]).toEqual([sink.type, { ok: true }]);

    const mail = decodeQuotedPrintable(smtp.received[0]!.raw);
    const payloads: Record<string, string> = {
      slack: JSON.stringify(slack.received[0]!.body, null, 2),
      pagerduty: JSON.stringify(pagerduty.received[0]!.body, null, 2),
      email: mail,
      discord: JSON.stringify(discord.received[0]!.body, null, 2),
      telegram: JSON.stringify(telegram.received[0]!.body, null, 2),
      command: readFileSync(commandOut, "utf8"),
    };
    expect(smtp.received[0]).toMatchObject({ secure: true, user: creds.user });
    expect(pagerduty.received[0]!.body).toMatchObject({
      event_action: "trigger",
      dedup_key: `violation:${item.id}`,
      payload: { severity: "critical", source: "kusd-devnet" },
    });
    for (const [name, text] of Object.entries(payloads)) {
      console.log(`--- ${name} received ---\n${text}`);
      // JSON bodies escape quotes; the HTML parts escape them as &quot;: compare on the label itself.
      expect([name, text.includes(entry.role) && text.includes(entry.label)]).toEqual([name, true]);
      expect([name, text.includes(amountText)]).toEqual([name, true]);
      expect([name, text.includes(receipt.transactionHash)]).toEqual([name, true]);
    }
  });

  it("a redemption alerted to Slack and PagerDuty by kusd-monitor --config is retracted there when a reorg removes it", async () => {
    const config = join(dir, "reorg.yaml");
    writeFileSync(
      config,
      [
        `api: ${s.indexerUrl}`,
        'alerts: { redemptions: { minKusd: "0" } }',
        "fromBlock: head",
        "pollMs: 200",
        `state: ${JSON.stringify(join(dir, "reorg-state.json"))}`,
        "retry: { baseDelayMs: 10, maxDelayMs: 100 }",
        "sinks:",
        `  - { type: slack, url: "${slack.url}/services/T000/B000/REORG", kinds: [redemption] }`,
        `  - { type: pagerduty, url: "${pagerduty.url}/v2/enqueue", routingKey: "${ROUTING_KEY}", kinds: [redemption] }`,
      ].join("\n"),
    );
    const once = async () => {
      const out: string[] = [];
      expect(await runMonitorCli(["--config", config, "--once"], { write: (l) => out.push(l), env: {} })).toBe(0);
      return out.join("");
    };
    const slackFrom = slack.received.length;
    const pagerFrom = pagerduty.received.length;
    await s.caughtUp();
    await once(); // the head as it stands: where the monitor starts

    const snapshot = (await s.client.request({ method: "evm_snapshot" as never })) as Hex;
    const amount = parseUnits("7.5", 18);
    const operator = s.wallet(d.accounts.operator!.privateKey);
    const psm = s.addr("psmMint");
    await s.client.waitForTransactionReceipt({
      hash: await operator.writeContract({
        address: s.addr("kUSD"),
        abi: kusdAbi,
        functionName: "approve",
        args: [psm, amount],
      }),
    });
    const redemption = await s.client.waitForTransactionReceipt({
      hash: await operator.writeContract({
        address: psm,
        abi: kusdpsmAbi,
        functionName: "swapKUSDForStable",
        args: [s.addr("usdc"), amount],
      }),
    });
    expect(redemption.status).toBe("success");
    await s.indexedThrough(redemption.blockNumber);
    await once();
    const slackAlert = JSON.stringify(slack.received[slackFrom]?.body);
    const trigger = pagerduty.received[pagerFrom]?.body as any;
    expect(slackAlert).toContain(redemption.transactionHash);
    expect(slackAlert).toContain(`${formatUnits(amount, 18)} kUSD`);
    expect(trigger).toMatchObject({ event_action: "trigger", routing_key: ROUTING_KEY });
    expect(trigger.dedup_key).toMatch(/^redemption:/);

    // The block with the redemption is replaced by empty ones: the redemption never happened.
    await s.reorgTo(snapshot);
    expect(await s.client.getTransactionReceipt({ hash: redemption.transactionHash }).catch(() => null)).toBeNull();
    await once();
    const slackRetraction = JSON.stringify(slack.received[slackFrom + 1]?.body);
    expect(slackRetraction).toContain("Retracted");
    expect(slackRetraction).toContain(redemption.transactionHash);
    expect(pagerduty.received[pagerFrom + 1]?.body).toMatchObject({
      event_action: "resolve",
      routing_key: ROUTING_KEY,
      dedup_key: trigger.dedup_key,
    });
    // Each once: nothing more was sent.
    expect([slack.received.length - slackFrom, pagerduty.received.length - pagerFrom]).toEqual([2, 2]);
  });
});
