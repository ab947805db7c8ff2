/**
 * A command run per alert (no shell: the argv is the configuration), the alert as JSON on stdin
 * ({ deliveryId, severity, title, lines, proof, message }). Exit 0 is delivered; anything else,
 * a failure to start or the timeout, is retryable: a script's failure says nothing about the
 * message itself.
 */
import { spawn } from "node:child_process";
import type { AlertView, DeliveryResult, Sink } from "./sink.js";

export type CommandOptions = {
  id?: string;
  command: string;
  args?: string[];
  timeoutMs?: number;
  cwd?: string;
  /** The child's environment; the monitor's own by default (set by the entry point). */
  env?: Record<string, string | undefined>;
};

export const commandInput = (v: AlertView) =>
  JSON.stringify({
    deliveryId: v.deliveryId,
    severity: v.severity,
    title: v.title,
    lines: v.lines,
    proof: v.proof,
    message: v.message,
  });

export function commandSink(o: CommandOptions): Sink {
  const timeoutMs = o.timeoutMs ?? 30_000;
  return {
    id: o.id ?? "command",
    type: "command",
    deliver: (view, signal) =>
      new Promise<DeliveryResult>((resolve) => {
        const child = spawn(o.command, o.args ?? [], {
          cwd: o.cwd,
          env: o.env,
          stdio: ["pipe", "ignore", "pipe"],
          signal,
          timeout: timeoutMs,
          killSignal: "SIGKILL",
        });
        let stderr = "";
        child.stderr.on("data", (c: Buffer) => {
          if (stderr.length < 2000) stderr += c.toString("utf8");
        });
        child.stdin.on("error", () => {}); // a command that ignores stdin closes it early: not a failure
        child.stdin.end(commandInput(view));
        let startError: string | null = null;
        child.on("error", (e) => {
          startError = e.message;
        });
        child.on("close", (code, sig) => {
          if (code === 0) return resolve({ ok: true });
          const why =
            startError ??
            (sig ? `killed by ${sig}${sig === "SIGKILL" ? ` (timeout ${timeoutMs} ms?)` : ""}` : `exit ${code}`);
          resolve({
            ok: false,
            retryable: true,
            error: `command ${o.command}: ${why} ${stderr.trim().slice(0, 500)}`.trim(),
          });
        });
      }),
  };
}
