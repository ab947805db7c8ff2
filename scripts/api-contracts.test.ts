/**
 * The two OpenAPI documents (GET /api/openapi.json and GET /paid/openapi.json, built in process
 * as docs/api/ is) against two linters' stock rulesets, Redocly's `recommended` and Spectral's
 * `oas`, with zero errors allowed (the warnings are counted and printed); and every documented
 * parameter form against the server: for each parameter with a pattern or an enum, probes around
 * its boundaries (the numbers its description names, ±1, and a fixed set of near misses) are
 * refused by the server exactly when the document refuses them.
 */

import { createServer, type Server } from "node:http";
import { createConfig, lintFromString, type NormalizedProblem } from "@redocly/openapi-core";
import { Document, type ISpectralDiagnostic, Spectral } from "@stoplight/spectral-core";
import * as SpectralParsers from "@stoplight/spectral-parsers";
import { oas } from "@stoplight/spectral-rulesets";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { databaseUnavailable } from "../api/http/errors.js";
import type { ReadDb } from "../api/io/indexed-reads.js";
import type { OperatorStore } from "../api/store/operator-store.js";
import {
  CONTRACT_SITE_URL,
  contractApp,
  type OpenApiDoc,
  type OpenApiParameter,
  openApiDocuments,
} from "./api-contracts.js";

let docs: { free: OpenApiDoc; paid: OpenApiDoc };
beforeAll(async () => {
  docs = await openApiDocuments();
});

function tally(keys: string[]): string {
  const counts = new Map<string, number>();
  for (const k of keys) counts.set(k, (counts.get(k) ?? 0) + 1);
  return [...counts].map(([k, n]) => `${k} ×${n}`).join(", ");
}

async function redocly(name: string, doc: OpenApiDoc): Promise<NormalizedProblem[]> {
  const config = await createConfig({ extends: ["recommended"] });
  return lintFromString({ source: JSON.stringify(doc), absoluteRef: `${name}.json`, config });
}

async function spectral(name: string, doc: OpenApiDoc): Promise<ISpectralDiagnostic[]> {
  const linter = new Spectral();
  linter.setRuleset({ extends: [[oas as never, "recommended"]] } as never);
  // The JSON parser keeps positions, so a finding names its path in the document.
  const { Json } = SpectralParsers as unknown as { Json: ConstructorParameters<typeof Document>[1] };
  return linter.run(new Document(JSON.stringify(doc, null, 2), Json, `${name}.json`));
}

describe("the OpenAPI documents pass the linters' stock rulesets", () => {
  for (const which of ["free", "paid"] as const) {
    it(`${which}: Redocly recommended, zero errors`, async () => {
      const problems = await redocly(which, docs[which]);
      const errors = problems.filter((p) => p.severity === "error");
      const warnings = problems.filter((p) => p.severity !== "error");
      console.log(
        `Redocly recommended, ${which} document: ${errors.length} errors, ${warnings.length} warnings${warnings.length ? ` (${tally(warnings.map((w) => w.ruleId))})` : ""}`,
      );
      expect(errors.map((e) => `${e.ruleId} ${e.location[0]?.pointer ?? ""}: ${e.message}`)).toEqual([]);
    });

    it(`${which}: Spectral oas, zero errors`, async () => {
      const diagnostics = await spectral(which, docs[which]);
      // Spectral's severities: 0 error, 1 warning, 2 information, 3 hint.
      const errors = diagnostics.filter((d) => d.severity === 0);
      const warnings = diagnostics.filter((d) => d.severity !== 0);
      console.log(
        `Spectral oas, ${which} document: ${errors.length} errors, ${warnings.length} warnings${warnings.length ? ` (${tally(warnings.map((w) => String(w.code)))})` : ""}`,
      );
      expect(errors.map((e) => `${e.code} ${e.path.join(".")}: ${e.message}`)).toEqual([]);
    });
  }

  it("every operation has a description, says what security it needs, and its tags are declared with descriptions", () => {
    const missing: string[] = [];
    for (const [which, doc] of Object.entries(docs)) {
      const declared = new Map((doc.tags ?? []).map((t) => [t.name, t.description]));
      for (const [path, ops] of Object.entries(doc.paths))
        for (const [method, op] of Object.entries(ops)) {
          const at = `${which} ${method.toUpperCase()} ${path}`;
          if (!op.description?.trim()) missing.push(`${at}: description`);
          if (!Array.isArray(op.security)) missing.push(`${at}: security`);
          for (const tag of op.tags ?? []) if (!declared.get(tag)) missing.push(`${at}: tag ${tag} declared`);
        }
    }
    expect(missing).toEqual([]);
    // Free operations need nothing; the paid ones name the x402 scheme.
    for (const ops of Object.values(docs.free.paths))
      for (const op of Object.values(ops)) expect(op.security).toEqual([]);
    for (const ops of Object.values(docs.paid.paths))
      for (const op of Object.values(ops)) expect(op.security).toEqual([{ x402: [] }]);
  });
});

/**
 * Values to try against a parameter: numbers its description names (a page size "1 to 1000")
 * with their neighbours, and near misses of every form the API takes (leading zeros, signs,
 * spaces, exponents, decimals, hashes, cursors, words).
 */
function probesFor(p: OpenApiParameter): string[] {
  const named = [...(p.description ?? "").matchAll(/\d+/g)].map((m) => BigInt(m[0]));
  const around = named.flatMap((n) => [n - 1n, n, n + 1n]).filter((n) => n >= 0n);
  const powers = Array.from({ length: 17 }, (_, i) => 10n ** BigInt(i)).flatMap((n) => [n - 1n, n]);
  const hex64 = "ab".repeat(32);
  return [
    ...new Set([
      ...[...around, ...powers].map(String),
      "",
      "00",
      "01",
      "007",
      "0500",
      "-1",
      "+1",
      " 1",
      "1 ",
      "1e3",
      "0x10",
      "1.5",
      "0.995",
      "1.",
      ".5",
      "0.0",
      "0.000000000000000001",
      "0.0000000000000000001",
      "1234567890123456.5",
      "latest",
      "LATEST",
      "abc",
      `0x${hex64}`,
      `0x${hex64.toUpperCase()}`,
      `0x${hex64.slice(1)}`,
      `0x${hex64}0`,
      "12:3",
      "12:",
      ":3",
      "1:1234567890",
      "asc",
      "desc",
      "ASC",
      "DESC",
      "Asc",
      "DAY",
      "day",
      ...(p.schema?.enum ?? []),
    ]),
  ];
}

/** Whether the server's answer refuses this parameter (400 naming it), as every route names the parameter it refuses. */
function refusesParameter(status: number, body: unknown, name: string): boolean {
  if (status !== 400) return false;
  const error = (body as { error?: { code?: string; details?: Record<string, unknown> } }).error;
  return (
    error?.code === `invalid_${name}` ||
    error?.details?.argument === name ||
    (error?.details !== undefined && name in error.details)
  );
}

/**
 * A JSON-RPC node on the devnet's default ports (8545, 8546), answering every call (`null`, or the
 * chain id), as `npm start`'s devnet would: the probes must not reach it. A port already taken (by
 * a running `npm start`) is left to whatever holds it: then that is the node the probes must not reach.
 */
const defaultPortNodes: { port: number; server: Server; calls: number }[] = [];
beforeAll(async () => {
  for (const [port, chainId] of [
    [8545, "0x2105"],
    [8546, "0x1"],
  ] as const) {
    const node = { port, server: createServer(), calls: 0 };
    node.server.on("request", (req, res) => {
      node.calls++;
      let body = "";
      req.on("data", (d) => {
        body += d;
      });
      req.on("end", () => {
        const answer = (r: { id?: unknown; method?: string }) => ({
          jsonrpc: "2.0",
          id: r.id ?? null,
          result: r.method === "eth_chainId" ? chainId : null,
        });
        const parsed = JSON.parse(body || "{}") as { id?: unknown; method?: string } | { id?: unknown }[];
        res.setHeader("content-type", "application/json");
        res.end(JSON.stringify(Array.isArray(parsed) ? parsed.map(answer) : answer(parsed)));
      });
    });
    const listening = await new Promise<boolean>((resolve) => {
      node.server.once("error", () => resolve(false));
      node.server.listen(port, "127.0.0.1", () => resolve(true));
    });
    if (listening) defaultPortNodes.push(node);
  }
});
afterAll(async () => {
  await Promise.all(defaultPortNodes.map((n) => new Promise((resolve) => n.server.close(resolve))));
});

describe("every documented parameter form is what the server accepts", () => {
  it("refused by the server exactly when its pattern or enum refuses it, at the boundaries and around them", async () => {
    // Parts that refuse at once: a value the parameter's check lets through reaches the handler,
    // which answers 503 from the first read; a refused one is a 400 before any read.
    const db = new Proxy(
      {},
      {
        get() {
          throw databaseUnavailable();
        },
      },
    ) as ReadDb;
    const store = Promise.reject(databaseUnavailable()) as Promise<OperatorStore>;
    store.catch(() => {});
    const app = contractApp({ db, store, paid: false });
    const disagreements: string[] = [];
    let checked = 0;
    for (const [path, ops] of Object.entries(docs.free.paths)) {
      const op = ops.get;
      if (!op) continue;
      // An export's NDJSON route takes the CSV route's parameters (checked below): probed once.
      if (path.endsWith(".ndjson")) {
        expect(op.parameters, path).toEqual(docs.free.paths[path.replace(/\.ndjson$/, ".csv")]?.get?.parameters);
        continue;
      }
      const required = (op.parameters ?? []).filter((p) => p.in === "query" && (p as { required?: boolean }).required);
      for (const p of op.parameters ?? []) {
        const { pattern, enum: values } = p.schema ?? {};
        if (!pattern && !values) continue;
        const documented = (v: string) => (pattern ? new RegExp(pattern, "u").test(v) : values!.includes(v));
        for (const probe of probesFor(p)) {
          // Other required parameters get a value their own pattern accepts (redemption-plan's amount).
          const others = required.filter((r) => r.name !== p.name).map((r) => [r.name, validExample(r)] as const);
          const url =
            p.in === "path"
              ? `${path.replace(`{${p.name}}`, encodeURIComponent(probe))}`
              : `${path}?${new URLSearchParams([...others, [p.name, probe]])}`;
          if (p.in === "path" && probe === "") continue;
          const res = await app.request(`${CONTRACT_SITE_URL}${url}`);
          const refused = refusesParameter(res.status, await res.json().catch(() => null), p.name);
          checked++;
          if (refused === documented(probe))
            disagreements.push(
              `${path} ${p.name}=${JSON.stringify(probe)}: document ${documented(probe) ? "accepts" : "refuses"}, server ${refused ? "refuses" : "accepts"} (${res.status})`,
            );
        }
      }
    }
    console.log(`parameter forms: ${checked} probes, ${disagreements.length} disagreements`);
    expect(disagreements).toEqual([]);
    // The app's chains are unreachable: the node answering on a default port heard nothing.
    expect(defaultPortNodes.map((n) => `${n.port}: ${n.calls} calls`)).toEqual(
      defaultPortNodes.map((n) => `${n.port}: 0 calls`),
    );
    expect(checked).toBeGreaterThan(1000);
  }, 120_000);
});

/** A value a required parameter's own pattern accepts, from the probes (the smallest that passes). */
function validExample(p: OpenApiParameter): string {
  const pattern = new RegExp(p.schema?.pattern ?? ".*", "u");
  const found = probesFor(p).find((v) => v !== "" && pattern.test(v));
  if (found === undefined) throw new Error(`no example for ${p.name}`);
  return found;
}
