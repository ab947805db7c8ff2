/**
 * GET /llms.txt (https://llmstxt.org): the API described for language-model agents, in the
 * format's order (an H1, a blockquote summary, free text, then H2 sections of link lists).
 * Generated from the two OpenAPI documents, which are themselves generated from the route
 * contracts: every route with its summary and parameters, every paid route with its price and
 * request body. Nothing here names a route, so the text cannot drift from what the API serves.
 */

type Schema = {
  $ref?: string;
  type?: string | string[];
  enum?: unknown[];
  pattern?: string;
  default?: unknown;
  description?: string;
  properties?: Record<string, Schema>;
  required?: string[];
};
type Parameter = { name: string; in: string; required?: boolean; description?: string; schema?: Schema };
type Operation = {
  summary?: string;
  description?: string;
  tags?: string[];
  parameters?: Parameter[];
  requestBody?: { content?: Record<string, { schema?: Schema }> };
  "x-payment-info"?: {
    price: { amount: string; currency: string };
    scheme: string;
    network: string;
    asset: string;
    payTo: string;
  };
};
export type OpenApiLike = {
  info: { title: string; description?: string };
  servers?: { url: string }[];
  paths: Record<string, Record<string, Operation>>;
  components?: { schemas?: Record<string, Schema> };
  "x-x402"?: { asset?: { symbol?: string } };
};

export type LlmsTxtInput = {
  /** GET /api/openapi.json: the free routes. */
  free: OpenApiLike;
  /** The paid gateway's descriptor, when the gateway is on. */
  paid: OpenApiLike | null;
  /** Machine-readable documents an agent may want next, by name. */
  links: { name: string; url: string; note: string }[];
};

const METHODS = ["get", "post", "put", "patch", "delete"];
const oneLine = (s: string) => s.replace(/\s+/g, " ").trim();
const sentence = (s: string) => (/[.!?]$/.test(s) ? s : `${s}.`);

function resolve(doc: OpenApiLike, s: Schema | undefined): Schema | undefined {
  const name = s?.$ref?.match(/^#\/components\/schemas\/(.+)$/)?.[1];
  return name ? doc.components?.schemas?.[name] : s;
}

/** What a value may be, in a few words: its allowed values, pattern and default. */
function constraint(s: Schema | undefined): string[] {
  if (!s) return [];
  const out: string[] = [];
  if (s.enum) out.push(`one of ${s.enum.map((v) => String(v)).join(", ")}`);
  else if (s.pattern) out.push(`pattern \`${s.pattern}\``);
  else if (s.type) out.push([s.type].flat().join(" or "));
  if (s.default !== undefined) out.push(`default ${JSON.stringify(s.default)}`);
  return out;
}

function field(name: string, where: string, required: boolean, s: Schema | undefined, description?: string) {
  const facts = [where, required ? "required" : "optional", ...constraint(s)].filter(Boolean).join("; ");
  const text = description ?? s?.description;
  return `\`${name}\` (${facts})${text ? `: ${oneLine(text)}` : ""}`;
}

/** One operation as a link list item; `shown` is its path on this origin (the descriptor's are relative to its server). */
function operationLine(doc: OpenApiLike, url: string, shown: string, method: string, op: Operation): string {
  const parts = [sentence(oneLine(op.summary ?? ""))];
  if (op.description) parts.push(sentence(oneLine(op.description)));
  const pay = op["x-payment-info"];
  if (pay) {
    const symbol = doc["x-x402"]?.asset?.symbol ?? pay.asset;
    parts.push(
      `Price ${pay.price.amount} ${pay.price.currency}, paid over x402 v2 (scheme ${pay.scheme}, ${symbol} ${pay.asset} on ${pay.network}, to ${pay.payTo}).`,
    );
  }
  const params = (op.parameters ?? []).map((p) => field(p.name, p.in, p.required === true, p.schema, p.description));
  if (params.length) parts.push(`Parameters: ${params.join("; ")}.`);
  const body = resolve(doc, op.requestBody?.content?.["application/json"]?.schema);
  if (body?.properties) {
    const fields = Object.entries(body.properties).map(([name, s]) =>
      field(name, "", body.required?.includes(name) === true, s),
    );
    parts.push(`JSON body: ${fields.join("; ")}.`);
  }
  return `- [${method.toUpperCase()} ${shown}](${url}): ${parts.join(" ")}`;
}

/** Each operation of a document under its first tag, in the document's path order. */
function sections(doc: OpenApiLike): Map<string, string[]> {
  const base = doc.servers?.[0]?.url ?? "";
  const prefix = base ? new URL(base).pathname.replace(/\/$/, "") : "";
  const byTag = new Map<string, string[]>();
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const method of METHODS) {
      const op = item[method];
      if (!op) continue;
      const tag = op.tags?.[0] ?? "Other";
      const lines = byTag.get(tag) ?? [];
      lines.push(operationLine(doc, `${base}${path}`, `${prefix}${path}`, method, op));
      byTag.set(tag, lines);
    }
  }
  return byTag;
}

export function renderLlmsTxt(i: LlmsTxtInput): string {
  const out = [`# ${i.free.info.title}`, ""];
  if (i.free.info.description) out.push(`> ${oneLine(i.free.info.description)}`, "");
  out.push(
    'Every route answers JSON unless its path names another format; an error is `{"error":{"code","message","details"}}` with a stable code, 4xx for anything the caller can fix. Any origin may call the API from a browser (CORS `*`, no credentials).',
    "",
  );
  if (i.paid?.info.description)
    out.push(
      `Paid routes: ${oneLine(i.paid.info.description)} An unpaid request is answered 402 with the terms in the PAYMENT-REQUIRED header; pay and retry with PAYMENT-SIGNATURE (any x402 v2 client, e.g. @x402/fetch).`,
      "",
    );
  out.push("## Machine-readable", ...i.links.map((l) => `- [${l.name}](${l.url}): ${l.note}`), "");
  for (const [tag, lines] of sections(i.free)) out.push(`## ${tag}`, ...lines, "");
  if (i.paid) out.push("## Paid (x402)", ...[...sections(i.paid).values()].flat(), "");
  return `${out.join("\n").trimEnd()}\n`;
}
