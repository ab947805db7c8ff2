/**
 * How figures are shown. The exact value stays in each element's data-value.
 *
 * Numbers are grouped here rather than by Intl.NumberFormat: the first Intl object a page makes
 * loads ICU's data, about 30 ms of main thread on a laptop (4x that on a phone), in the task that
 * renders the page. The output is en-US's (format.test.ts checks it against Intl).
 */
function grouped(n: number, minFraction: number, maxFraction: number): string {
  if (!Number.isFinite(n)) return String(n);
  // Intl rounds the shortest decimal that reads back as the double (0.015, not 0.01499…), half
  // away from zero, and keeps the sign of a negative that rounds to zero ("-0.00"), and of -0.
  const [whole, fraction] = roundHalfUp(plainDecimal(Math.abs(n)), maxFraction);
  let digits = fraction;
  while (digits.length > minFraction && digits.endsWith("0")) digits = digits.slice(0, -1);
  const sign = n < 0 || Object.is(n, -0) ? "-" : "";
  return `${sign}${whole.replace(/\B(?=(\d{3})+$)/g, ",")}${digits ? `.${digits}` : ""}`;
}

/** The shortest round-trip decimal of x >= 0 without exponent ("1e+21" → "1000000000000000000000"). */
function plainDecimal(x: number): string {
  const m = /^(\d+)(?:\.(\d+))?e([+-]\d+)$/.exec(String(x));
  if (!m) return String(x);
  const digits = m[1]! + (m[2] ?? "");
  const point = m[1]!.length + Number(m[3]);
  if (point <= 0) return `0.${"0".repeat(-point)}${digits}`;
  if (point >= digits.length) return digits + "0".repeat(point - digits.length);
  return `${digits.slice(0, point)}.${digits.slice(point)}`;
}

/** A plain decimal string rounded half up to `places` fraction digits: [whole, fraction]. */
function roundHalfUp(decimal: string, places: number): [string, string] {
  const [whole, fraction = ""] = decimal.split(".") as [string, string?];
  if (fraction.length <= places) return [whole, fraction.padEnd(places, "0")];
  let kept = BigInt(whole + fraction.slice(0, places));
  if (fraction[places]! >= "5") kept += 1n;
  const digits = kept.toString().padStart(places + 1, "0");
  return [digits.slice(0, digits.length - places), digits.slice(digits.length - places)];
}

export const money = (n: number | null | undefined) => (n === null || n === undefined ? "unknown" : grouped(n, 2, 2));
export const amount = (n: number | null | undefined) => (n === null || n === undefined ? "unknown" : grouped(n, 0, 2));
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

/** The reproduction command whose note (after `#`) names `field`: the figure's verifyVia. */
export function commandFor(verifyVia: readonly string[] | undefined, field: string): string | undefined {
  return verifyVia?.find((c) => {
    const note = c.split("#").slice(1).join("#").trim();
    return note === field || note.startsWith(`${field} `) || note.startsWith(`${field}=`);
  });
}

/** A fraction as a percentage with `digits` decimals: 0.0458 → "4.58%" (`ratio`'s, and the API's `…Pct`, at 2). */
export const percent = (f: number | null | undefined, digits = 2) =>
  f === null || f === undefined ? "unknown" : `${(f * 100).toFixed(digits)}%`;
