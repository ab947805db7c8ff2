/** Mint readiness of the live PSM and the safety switches out of their safe state, at the report's block. */
import { useEffect, useState } from "preact/hooks";
import { type PsmStatus, type RiskStatus, readPsmStatus, readRiskStatus } from "../api.js";
import { money } from "../format.js";
import { CopyCommand } from "./CopyCommand.js";
import { PendingCard } from "./PendingCard.js";

const OVERALL_CLASS: Record<string, string> = { ok: "good", attention: "warn", unknown: "unknown" };

export function Safety({ block }: { block: number }) {
  const [psm, setPsm] = useState<PsmStatus | null>(null);
  const [risk, setRisk] = useState<RiskStatus | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    setPsm(null);
    setRisk(null);
    Promise.all([readPsmStatus(block), readRiskStatus(block)]).then(
      ([p, r]) => {
        setPsm(p);
        setRisk(r);
      },
      (e: Error) => setError(e.message),
    );
  }, [block]);
  if (error) return <section class="card bad">{error}</section>;
  if (!psm || !risk) return <PendingCard title="Mint readiness and safety switches" size="safety" />;
  const unsafe = risk.triggers.onChain.filter((t) => t.safe === false);
  // The venue and the statement count in `overall` too: say so when one of them is the reason.
  const unsafeOffChain = risk.triggers.offChain.filter((t) => t.safe === false);
  const live = psm.psms[0]!;
  return (
    <section class="card" data-testid="safety">
      <h2>
        Mint readiness and safety switches{" "}
        <span
          class={`badge ${OVERALL_CLASS[risk.overall] ?? "unknown"}`}
          data-testid="risk-overall"
          data-value={risk.overall}
        >
          {risk.overall}
        </span>
      </h2>
      <p>
        The live mint PSM can mint now:{" "}
        <strong data-testid="psm-ready" data-value={String(psm.ready)}>
          {psm.ready === null ? "unknown" : psm.ready ? "yes" : `no (${live.blocking.join(", ")})`}
        </strong>
        , with room for{" "}
        <strong data-testid="psm-headroom" data-value={psm.gates.headroomUSDC ?? ""}>
          {money(psm.gates.headroomUSDC)} USDC
        </strong>{" "}
        under its cap ({live.capBasis}). <a href={`/api/psm-status?block=${block}`}>every gate</a>
      </p>
      {unsafe.length + unsafeOffChain.length === 0 ? (
        <p>Every switch with a safe state is in it.</p>
      ) : (
        <ul class="checks">
          {unsafe.map((t) => (
            <li key={t.id} class="warn" data-testid="unsafe-trigger">
              <strong>{t.id}</strong> = {Array.isArray(t.value) ? t.value.join(", ") : String(t.value)} (safe when{" "}
              {t.safeWhen}): {t.why} <CopyCommand command={t.verifyVia ?? undefined} />
            </li>
          ))}
          {unsafeOffChain.map((t) => (
            <li key={t.id} class="warn" data-testid="unsafe-trigger">
              <strong>{t.id}</strong> = {String(t.value)} (safe when {t.safeWhen}): {t.detail}
            </li>
          ))}
        </ul>
      )}
      <p class="note">
        {risk.triggers.onChain.length} switches and thresholds, catalogued from the deployed ABIs; {risk.gaps.length}{" "}
        getters the operator's source names revert on the deployed bytecode ({risk.gaps.map((g) => g.id).join(", ")}).{" "}
        <a href={`/api/risk-status?block=${block}`}>risk-status</a>
      </p>
    </section>
  );
}
