import { describe, expect, it } from "vitest";
import { commandSink } from "./command.js";
import { sampleView } from "./sample-alert.test-support.js";

// The child echoes stdin to stderr-free exit codes; node itself is the one command sure to exist.
const node = process.execPath;

describe("command sink", () => {
  it("passes the alert JSON on stdin; exit 0 is delivered", async () => {
    const script =
      "let s='';process.stdin.on('data',d=>s+=d).on('end',()=>{const a=JSON.parse(s);process.exit(a.message.kind==='violation'&&a.lines.join().includes('2.5 kUSD')?0:7)})";
    expect(await commandSink({ command: node, args: ["-e", script] }).deliver(sampleView)).toEqual({ ok: true });
  });

  it("a non-zero exit, a missing command and the timeout are retryable errors", async () => {
    const fail = await commandSink({ command: node, args: ["-e", "console.error('boom');process.exit(3)"] }).deliver(
      sampleView,
    );
    expect(fail).toMatchObject({ ok: false, retryable: true, error: expect.stringMatching(/exit 3 boom/) });
    const missing = await commandSink({ command: "/nonexistent/alert-hook" }).deliver(sampleView);
    expect(missing).toMatchObject({ ok: false, retryable: true, error: expect.stringContaining("ENOENT") });
    const slow = await commandSink({ command: node, args: ["-e", "setTimeout(()=>{},60000)"], timeoutMs: 300 }).deliver(
      sampleView,
    );
    expect(slow).toMatchObject({ ok: false, retryable: true, error: expect.stringContaining("SIGKILL") });
  });
});
