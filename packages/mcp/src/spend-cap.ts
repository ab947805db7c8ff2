/**
 * The session's spend cap: the total the agent allowed (`--max-spend`), what it has paid, and
 * what is held for payments under way, in the asset's smallest units. A price is held before
 * anything is signed, so two calls at once cannot both fit in what is left for one; a payment
 * that the server did not settle is released, a settled one is spent.
 */
import { formatUnits } from "viem";

export type Hold = { readonly amount: bigint; spend(): void; release(): void };

export type HoldResult = { ok: true; hold: Hold } | { ok: false; reason: string };

export class SpendCap {
  private spent = 0n;
  private held = 0n;

  constructor(
    readonly cap: bigint,
    private readonly unit: { decimals: number; symbol: string },
  ) {}

  /** Amounts as the agent reads them: "0.25 USDC". */
  format(amount: bigint): string {
    return `${formatUnits(amount, this.unit.decimals)} ${this.unit.symbol}`;
  }

  get paid(): bigint {
    return this.spent;
  }

  get left(): bigint {
    return this.cap - this.spent - this.held;
  }

  /** Holds `price` for `what`, or says why it does not fit: the price, the cap, what is spent and left. */
  hold(price: bigint, what: string): HoldResult {
    if (price < 0n) return { ok: false, reason: `${what}: the price asked is negative (${price}); nothing was paid` };
    if (price > this.left) {
      const held = this.held > 0n ? `, ${this.format(this.held)} held for a payment under way` : "";
      return {
        ok: false,
        reason: `refused: ${what} costs ${this.format(price)}, over this session's spend cap of ${this.format(this.cap)} (${this.format(this.spent)} spent${held}, ${this.format(this.left)} left); nothing was signed or paid. Start kusd-mcp with a higher --max-spend to buy it.`,
      };
    }
    this.held += price;
    let open = true;
    const close = (spent: boolean) => {
      if (!open) return;
      open = false;
      this.held -= price;
      if (spent) this.spent += price;
    };
    return { ok: true, hold: { amount: price, spend: () => close(true), release: () => close(false) } };
  }
}
