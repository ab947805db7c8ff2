/** The vaults, and whether each counts as collateral (and why not, where it does not). */
import type { PorReport } from "../api.js";
import { money, shortHex } from "../format.js";
import { CommandList } from "./CopyCommand.js";
import { ScrollRegion } from "./ScrollRegion.js";

export function Vaults({ por }: { por: PorReport }) {
  const r = por.reserves;
  const rows = [
    {
      name: "skUSD (live staking vault)",
      address: r.stakedVault.address,
      tvl: r.stakedVault.tvlUSD,
      counted: r.stakedVault.countedInSolvency,
      note: r.stakedVault.note,
      extra: `price per share ${r.stakedVault.pricePerShare ?? "unknown"} kUSD`,
      verifyVia: r.stakedVault.verifyVia,
    },
    {
      name: "skUSD v1 (superseded)",
      address: r.stakedVaultDeprecated.address,
      tvl: r.stakedVaultDeprecated.tvlUSD,
      counted: r.stakedVaultDeprecated.countedInSolvency,
      note: r.stakedVaultDeprecated.note,
      extra: "",
      verifyVia: r.stakedVaultDeprecated.verifyVia,
    },
    {
      name: "vault v1 (WETH, retired)",
      address: r.vault.address,
      tvl: r.vault.tvlUSD,
      counted: true,
      note: r.vault.reconciliation,
      extra: "counts in the aggregate ratio only",
      verifyVia: r.vault.verifyVia,
    },
    {
      name: "vault v2 (live deposit vault)",
      address: r.vaultV2.address,
      tvl: r.vaultV2.tvlUSD,
      counted: r.vaultV2.countedInSolvency,
      note: r.vaultV2.note,
      extra: "",
      verifyVia: r.vaultV2.verifyVia,
    },
  ];
  return (
    <section class="card">
      <h2>Vaults</h2>
      <ScrollRegion label="Vaults">
        <table>
          <thead>
            <tr>
              <th>vault</th>
              <th class="num">value</th>
              <th>counts as collateral</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((v) => (
              <tr key={v.address}>
                <td>
                  <strong>{v.name}</strong> <code title={v.address}>{shortHex(v.address)}</code>
                  <div class="note">{v.note}</div>
                  <CommandList commands={v.verifyVia} />
                </td>
                <td class="num">{money(v.tvl)} USD</td>
                <td>
                  {v.counted ? "yes" : "no"}
                  {v.extra && <div class="note">{v.extra}</div>}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </ScrollRegion>
    </section>
  );
}
