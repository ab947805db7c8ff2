/**
 * A real SMTP server for tests (smtp-server): STARTTLS with the fixed test certificate, AUTH
 * PLAIN/LOGIN required and only after TLS (as a submission server does), and each accepted
 * message kept raw with its envelope. Can refuse the next N messages with a given SMTP code.
 * The certificate (test/fixtures/smtp, localhost and 127.0.0.1, 100 years) protects nothing and
 * is no secret; it was made with `openssl req -x509 -newkey ec -pkeyopt
 * ec_paramgen_curve:prime256v1 -nodes -keyout test-key.pem -out test-cert.pem -days 36500
 * -subj "/CN=localhost" -addext "subjectAltName=DNS:localhost,IP:127.0.0.1"`.
 */
import { readFileSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { fileURLToPath } from "node:url";
import { SMTPServer } from "smtp-server";

const FIXTURES = fileURLToPath(new URL("../../fixtures/smtp/", import.meta.url));
export const TEST_CERT = readFileSync(`${FIXTURES}test-cert.pem`, "utf8");
const TEST_KEY = readFileSync(`${FIXTURES}test-key.pem`, "utf8");

export type ReceivedMail = { from: string; to: string[]; raw: string; secure: boolean; user: string | undefined };

export type SmtpReceiver = {
  host: string;
  port: number;
  received: ReceivedMail[];
  refuseNext(times: number, code: number, message: string): void;
  close(): Promise<void>;
};

export async function startSmtpReceiver(creds: { user: string; pass: string }): Promise<SmtpReceiver> {
  const received: ReceivedMail[] = [];
  const refusals: Array<{ code: number; message: string }> = [];
  const server = new SMTPServer({
    secure: false,
    key: TEST_KEY,
    cert: TEST_CERT,
    authMethods: ["PLAIN", "LOGIN"],
    // allowInsecureAuth false (the default): AUTH before STARTTLS is refused.
    logger: false,
    onAuth(auth, _session, cb) {
      if (auth.username === creds.user && auth.password === creds.pass) return cb(null, { user: auth.username });
      const e = Object.assign(new Error("Invalid username or password"), { responseCode: 535 });
      cb(e);
    },
    onData(stream, session, cb) {
      const chunks: Buffer[] = [];
      stream.on("data", (c: Buffer) => chunks.push(c));
      stream.on("end", () => {
        const refusal = refusals.shift();
        if (refusal) return cb(Object.assign(new Error(refusal.message), { responseCode: refusal.code }));
        received.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks).toString("utf8"),
          secure: session.secure,
          user: session.user as string | undefined,
        });
        cb();
      });
    },
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
  const { port } = server.server.address() as AddressInfo;
  return {
    host: "127.0.0.1",
    port,
    received,
    refuseNext: (times, code, message) => {
      for (let i = 0; i < times; i++) refusals.push({ code, message });
    },
    close: () => new Promise((r) => server.close(() => r())),
  };
}

/** The message's text as a reader sees it: quoted-printable soft breaks and =XX escapes undone. */
export function decodeQuotedPrintable(raw: string): string {
  const unfolded = raw.replace(/=\r?\n/g, "");
  return Buffer.from(
    unfolded.replace(/=([0-9A-F]{2})/g, (_, h: string) => String.fromCharCode(Number.parseInt(h, 16))),
    "latin1",
  ).toString("utf8");
}
