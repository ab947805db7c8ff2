/**
 * Re-checks a published registry document independently of the service that built it: every
 * membership signature recovers to its address, every statement_canonical is the canonical
 * JSON of its statement and hashes to statement_digest, account_set_digest recomputes, and
 * every predicate holds when re-run at its observed block. Fail-closed: malformed input is a
 * failed check, never an exception.
 */
import { getAddress, type Hex, isAddress, isHex, recoverMessageAddress } from "viem";
import { attestationHash, canonicalJson } from "../attestation/canonical.js";
import { accountSetDigest, MEMBERSHIP_MESSAGE_TEMPLATE } from "./document.js";
import { type Predicate, predicateHolds } from "./predicates.js";

/** A published observation as read from the (untrusted) document: each field checked before use. */
type Observation = { observed_value?: unknown; holds?: unknown; observed_at_block: number; secondary?: Observation };

export type Check = { name: string; ok: boolean; detail?: string };
/** Runs `eth_call` of `data` on `to` at `block`; returns the raw answer. */
export type EthCall = (to: string, data: Hex, block: number) => Promise<Hex>;

export async function verifyRegistryDocument(
  doc: unknown,
  ethCall: EthCall | null,
): Promise<{ verified: boolean; checks: Check[] }> {
  const checks: Check[] = [];
  const check = (name: string, ok: boolean, detail?: string) => {
    checks.push({ name, ok, ...(detail ? { detail } : {}) });
    return ok;
  };
  const done = () => ({ verified: checks.length > 0 && checks.every((c) => c.ok), checks });

  // biome-ignore lint/suspicious/noExplicitAny: an untrusted document, each field checked below before it is relied on
  const r = (doc as { registry?: any } | null)?.registry;
  if (
    !check(
      "shape",
      typeof r === "object" && r !== null && Array.isArray(r.entries),
      "a { registry: { …, entries: [] } } document",
    )
  )
    return done();
  check("schema", typeof r.schema === "string" && /^[\w-]+-account-registry\/v1$/.test(r.schema), r.schema);
  check(
    "membership message",
    typeof r.membership_message_template === "string" &&
      r.membership_message === r.membership_message_template.replace("%s", r.as_of),
    "membership_message is the template with as_of",
  );
  if (r.membership_message_template !== MEMBERSHIP_MESSAGE_TEMPLATE)
    check("template", true, "template differs from this tool's default; the document's own template is used");
  const addresses = r.entries
    .map((e: { statement?: { address?: unknown } } | null) => e?.statement?.address)
    .filter((a: unknown) => typeof a === "string" && isAddress(a));
  check(
    "account_set_digest",
    addresses.length === r.entries.length && accountSetDigest(addresses) === r.account_set_digest,
    `recomputed ${addresses.length === r.entries.length ? accountSetDigest(addresses) : "n/a"}`,
  );

  for (const e of r.entries) {
    const s = e?.statement;
    const who = typeof s?.address === "string" ? s.address : "?";
    let canonicalOk = false;
    try {
      canonicalOk = typeof e.statement_canonical === "string" && canonicalJson(s) === e.statement_canonical;
    } catch {
      canonicalOk = false;
    }
    check(`${who} statement_canonical`, canonicalOk, "the statement serialised with keys sorted");
    check(
      `${who} statement_digest`,
      typeof e.statement_canonical === "string" && attestationHash(e.statement_canonical) === e.statement_digest,
    );
    const proof = s?.membership_proof;
    if (s?.kind === "eoa") {
      let recovered: string | null = null;
      try {
        recovered = await recoverMessageAddress({
          message: r.membership_message,
          signature: e.membership_signature as Hex,
        });
      } catch {
        recovered = null;
      }
      check(
        `${who} signature`,
        proof?.kind === "eoa_signature" &&
          proof?.message === r.membership_message &&
          recovered !== null &&
          isAddress(who) &&
          getAddress(recovered) === getAddress(who),
        `recovered ${recovered ?? "nothing"}`,
      );
    } else if (s?.kind === "contract") {
      check(`${who} no signature`, e.membership_signature === null, "a contract proves membership with a predicate");
      const preds: [string, Predicate | null | undefined, Observation | null | undefined][] = [
        ["predicate", proof?.predicate, s?.observation],
        ["secondary predicate", proof?.secondary_predicate, s?.observation?.secondary],
      ];
      for (const [label, p, obs] of preds) {
        if (!p) continue;
        const observedOk =
          obs && isHex(obs.observed_value) && obs.holds === true && predicateHolds(p, obs.observed_value);
        check(`${who} ${label} observed`, !!observedOk, `holds at block ${obs?.observed_at_block} as published`);
        if (!ethCall || !obs) continue;
        try {
          const answer = await ethCall(p.to, p.data, obs.observed_at_block);
          check(
            `${who} ${label} re-run`,
            answer.toLowerCase() === String(obs.observed_value).toLowerCase() && predicateHolds(p, answer),
            `eth_call at block ${obs.observed_at_block}: ${answer.slice(0, 66)}${answer.length > 66 ? "…" : ""}`,
          );
        } catch (err) {
          check(`${who} ${label} re-run`, false, `eth_call failed: ${(err as Error).message.split("\n")[0]}`);
        }
      }
    } else {
      check(`${who} kind`, false, "kind must be eoa or contract");
    }
  }
  return done();
}
