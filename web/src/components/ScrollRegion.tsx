/**
 * A table's box that scrolls when the table is wider (a phone) or, `tall`, longer than the box.
 * Focusable and named, so a keyboard can scroll it and a screen reader says what it holds
 * (axe: scrollable-region-focusable).
 */
import type { ComponentChildren } from "preact";

export function ScrollRegion({
  label,
  tall = false,
  children,
}: {
  label: string;
  tall?: boolean;
  children: ComponentChildren;
}) {
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must be reachable by keyboard
    <section class={tall ? "scroll tall" : "scroll"} tabIndex={0} aria-label={label}>
      {children}
    </section>
  );
}
