/** How figures are shown. The exact value stays in each element's data-value. */
const usdFmt = new Intl.NumberFormat("en-US", { maximumFractionDigits: 2, minimumFractionDigits: 2 });
const amountFmt = new Intl.NumberFormat("en-US", { maximumFractionDigits: 2 });

export const money = (n: number | null | undefined) => (n === null || n === undefined ? "unknown" : usdFmt.format(n));
export const amount = (n: number | null | undefined) =>
  n === null || n === undefined ? "unknown" : amountFmt.format(n);
export const ratio = (r: number | null | undefined) =>
  r === null || r === undefined ? "unknown" : `${(r * 100).toFixed(2)}%`;
export const shortHex = (h: string) => `${h.slice(0, 6)}…${h.slice(-4)}`;

/** "42 s", "5 min", "3 h", "2 d" ago. */
export function age(seconds: number): string {
  // A clock a few seconds apart from the signer's is not news; more than the verifier's 300 s skew is.
  if (seconds < -300) return "in the future";
  if (seconds < 5) return "just now";
  if (seconds < 90) return `${Math.round(seconds)} s ago`;
  if (seconds < 5400) return `${Math.round(seconds / 60)} min ago`;
  if (seconds < 172_800) return `${Math.round(seconds / 3600)} h ago`;
  return `${Math.round(seconds / 86_400)} d ago`;
}

export const ageOf = (iso: string, nowMs = Date.now()) => age((nowMs - Date.parse(iso)) / 1000);

/** The reproduction command whose note (after `#`) names `field`: the figure's verifyVia. */
export function commandFor(verifyVia: readonly string[] | undefined, field: string): string | undefined {
  return verifyVia?.find((c) => {
    const note = c.split("#").slice(1).join("#").trim();
    return note === field || note.startsWith(`${field} `) || note.startsWith(`${field}=`);
  });
}
