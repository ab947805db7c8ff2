import { connect } from "node:net";
import { describe, expect, it } from "vitest";
import { startSmtpReceiver } from "../../../../test/helpers/receivers/smtp.js";

/** The receiver behaves as a submission server: no credentials over a plain connection. */
describe("the SMTP test receiver", () => {
  it("offers STARTTLS and refuses AUTH before it", async () => {
    const rx = await startSmtpReceiver({ user: "u", pass: "p" });
    try {
      const socket = connect(rx.port, rx.host);
      let transcript = "";
      socket.on("data", (d: Buffer) => {
        transcript += d.toString("utf8");
      });
      const waitFor = async (re: RegExp) => {
        while (!re.test(transcript)) await new Promise((r) => setTimeout(r, 10));
      };
      await waitFor(/^220 /m);
      socket.write("EHLO test\r\n");
      await waitFor(/^250 /m);
      expect(transcript).toContain("STARTTLS");
      socket.write(`AUTH PLAIN ${Buffer.from("\0u\0p").toString("base64")}\r\n`);
      await waitFor(/^53\d /m);
      expect(transcript).toMatch(/^538 /m);
      socket.destroy();
    } finally {
      await rx.close();
    }
  });
});
