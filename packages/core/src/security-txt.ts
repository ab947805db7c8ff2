/**
 * `/.well-known/security.txt` (RFC 9116) from configuration: where to report a vulnerability.
 * Contact and Expires are required by the RFC, so without them there is no file (404) rather
 * than an invented address or date.
 */
import { z } from "zod";

export const SecurityTxtConfigSchema = z.object({
  contacts: z
    .array(z.string().regex(/^(mailto:|https:\/\/|tel:)/, "a Contact is a mailto:, https:// or tel: URI"))
    .min(1),
  expires: z.iso.datetime({ offset: true }),
  policy: z.url().optional(),
  languages: z.array(z.string()).default(["en"]),
  /** Where the file's authoritative copy is: only the configured public URL can say; absent, no Canonical line. */
  canonical: z.url().optional(),
});
export type SecurityTxtConfig = z.input<typeof SecurityTxtConfigSchema>;

export function buildSecurityTxt(config: SecurityTxtConfig): string {
  const c = SecurityTxtConfigSchema.parse(config);
  return [
    ...c.contacts.map((x) => `Contact: ${x}`),
    `Expires: ${new Date(c.expires).toISOString()}`,
    ...(c.policy ? [`Policy: ${c.policy}`] : []),
    `Preferred-Languages: ${c.languages.join(", ")}`,
    ...(c.canonical ? [`Canonical: ${c.canonical}`] : []),
    "",
  ].join("\n");
}

/** RFC 9116 §2.5.5: a file past its Expires must not be used; serve none rather than a stale one. */
export const securityTxtExpired = (expires: string, now = Date.now()) => Date.parse(expires) <= now;
