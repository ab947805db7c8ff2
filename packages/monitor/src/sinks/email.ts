/**
 * Email over SMTP with nodemailer: subject = the title, a text body and an HTML body with the
 * same facts. STARTTLS is required unless the connection is TLS from the start (`secure`), so
 * credentials never cross in clear. SMTP's own codes decide retrying: 4xx is transient; 5xx
 * refuses the message, except authentication (530/535), a configuration fix away, so kept.
 */
import { createTransport } from "nodemailer";
import type { AlertView, DeliveryResult, Sink } from "./sink.js";

export type EmailOptions = {
  id?: string;
  host: string;
  port?: number;
  /** TLS from the first byte (port 465); otherwise STARTTLS, required. */
  secure?: boolean;
  auth?: { user: string; pass: string };
  from: string;
  to: string | string[];
  /** Trust for the server's certificate (a private CA, or a test's self-signed certificate). */
  tls?: { ca?: string; rejectUnauthorized?: boolean; servername?: string };
  timeoutMs?: number;
};

const escHtml = (s: string) =>
  s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

const COLOR = { critical: "#b00020", error: "#d9480f", warning: "#b08800", info: "#2b8a3e" };

export function emailBodies(v: AlertView): { subject: string; text: string; html: string } {
  const proof = v.proof ? [`Proof: ${v.proof}`] : [];
  const text = [v.title, "", ...v.lines, ...proof, "", `Delivery id: ${v.deliveryId}`].join("\n");
  const html = [
    `<h2 style="color:${COLOR[v.severity]}">${escHtml(v.title)}</h2>`,
    `<p><strong>Severity:</strong> ${v.severity}</p>`,
    `<ul>${v.lines.map((l) => `<li>${escHtml(l)}</li>`).join("")}</ul>`,
    v.proof ? `<p><strong>Proof:</strong> <code>${escHtml(v.proof)}</code></p>` : "",
    `<p style="color:#666">Delivery id: <code>${escHtml(v.deliveryId)}</code></p>`,
  ].join("\n");
  // A header cannot carry newlines; a subject is one line.
  return { subject: v.title.replace(/[\r\n]+/g, " "), text, html };
}

export function smtpResult(e: unknown): DeliveryResult {
  const err = e as { responseCode?: number; message?: string };
  const code = err.responseCode;
  const permanent = code !== undefined && code >= 500 && code !== 530 && code !== 535;
  return { ok: false, retryable: !permanent, error: `email: ${code ?? ""} ${err.message ?? String(e)}`.trim() };
}

export function emailSink(o: EmailOptions): Sink {
  const timeout = o.timeoutMs ?? 15_000;
  const transport = createTransport({
    host: o.host,
    port: o.port ?? (o.secure ? 465 : 587),
    secure: o.secure ?? false,
    requireTLS: !o.secure,
    auth: o.auth,
    tls: o.tls,
    connectionTimeout: timeout,
    greetingTimeout: timeout,
    socketTimeout: timeout,
  });
  return {
    id: o.id ?? "email",
    type: "email",
    async deliver(view, signal) {
      if (signal?.aborted) return { ok: false, retryable: true, error: "email: aborted" };
      const { subject, text, html } = emailBodies(view);
      try {
        await transport.sendMail({
          from: o.from,
          to: o.to,
          subject,
          text,
          html,
          // Receivers (and people) can thread an alert with its retraction, and drop duplicates.
          messageId: `<${view.deliveryId.replace(/[^\w.:-]/g, "_")}@kusd-monitor>`,
          headers: { "X-Kusd-Delivery": view.deliveryId, "X-Kusd-Severity": view.severity },
        });
        return { ok: true };
      } catch (e) {
        return smtpResult(e);
      }
    },
  };
}
