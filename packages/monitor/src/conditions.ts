/**
 * Condition alerts: states of the service that are not events at a block, so no reorg undoes
 * them; they are alerted once they have lasted their limit and resolved when they end.
 * - statement_stale: the latest signed statement is older than --statement-max-age;
 * - venue_unreadable: the report has not read the venue for --venue-unreadable-after seconds.
 */
export type ConditionKind = "statement_stale" | "venue_unreadable";

/** A condition in progress: since when (unix seconds), and whether it has been alerted. */
export type ConditionState = { id: string; since: number; alerted: boolean; detail: Record<string, unknown> };

/** What one poll saw: bad or not, and (when bad) since when, as far as this poll can tell. */
export type Observation = { bad: false } | { bad: true; id: string; since: number; detail: Record<string, unknown> };

export type ConditionStep = { next: ConditionState | undefined; send: "alert" | "resolved" | null };

/** One poll of one condition: alert when it has lasted `limitSeconds`, resolve when it ends. */
export function stepCondition(
  prev: ConditionState | undefined,
  seen: Observation,
  now: number,
  limitSeconds: number,
): ConditionStep {
  if (!seen.bad) return { next: undefined, send: prev?.alerted ? "resolved" : null };
  // The earliest evidence wins: a condition does not restart because a poll saw it again.
  const since = Math.min(prev?.since ?? seen.since, seen.since);
  const alerted = prev?.alerted ?? false;
  const due = !alerted && now - since >= limitSeconds;
  return {
    next: { id: prev?.id ?? seen.id, since, alerted: alerted || due, detail: seen.detail },
    send: due ? "alert" : null,
  };
}

/** The statement's state from GET /api/por/signed: its signed time, or none published (HTTP 503). */
export function observeStatement(
  statement: { attestation_hash: string; signed_payload_canonical: string } | null,
  now: number,
  prev: ConditionState | undefined,
  maxAgeSeconds: number,
): Observation {
  // None published (the indexer may be catching up): alerted once that has lasted the limit.
  if (statement === null)
    return {
      bad: true,
      id: "no-statement",
      since: prev?.since ?? now,
      detail: { reason: "no signed statement is published" },
    };
  const signedAt = Number((JSON.parse(statement.signed_payload_canonical) as { timestamp?: unknown }).timestamp);
  const age = now - signedAt;
  if (!Number.isFinite(signedAt))
    return {
      bad: true,
      id: `statement:${statement.attestation_hash}`,
      since: now - maxAgeSeconds,
      detail: { reason: "the statement carries no signed timestamp" },
    };
  // `since` is when the statement became stale, so the alert is due exactly then.
  if (age <= maxAgeSeconds) return { bad: false };
  return {
    bad: true,
    id: `statement:${statement.attestation_hash}`,
    since: signedAt,
    detail: {
      attestationHash: statement.attestation_hash,
      signedAt: new Date(signedAt * 1000).toISOString(),
      ageSeconds: age,
      maxAgeSeconds,
    },
  };
}

/**
 * The venue as GET /api/health's `dependencies.venue` finds it: read live on every request (a
 * report at the head may reconcile against the reading a statement recorded at that block, which
 * says nothing about the venue now). `ok` null: no venue configured, nothing to watch.
 */
export function observeVenue(
  venue: { ok?: unknown; detail?: unknown } | null,
  now: number,
  prev: ConditionState | undefined,
): Observation {
  if (venue?.ok === true || venue?.ok === null) return { bad: false };
  const reason =
    typeof venue?.detail === "string" ? `venue read failed: ${venue.detail}` : "the health report has no venue";
  return { bad: true, id: `venue:${prev?.since ?? now}`, since: prev?.since ?? now, detail: { reason } };
}
