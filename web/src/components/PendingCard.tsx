/**
 * A section's place while its data is read: its title and a box of about its final height
 * (`.pending-<size>` in style.css), so what loads later fills the space instead of pushing.
 * `host` is given the box, for a section that waits for it to come near the screen.
 */
export function PendingCard({
  title,
  size,
  host,
}: {
  title: string;
  size: string;
  host?: { current: HTMLElement | null };
}) {
  return (
    <section ref={host} class={`card pending pending-${size}`} aria-busy="true">
      <h2>{title}</h2>
      <p class="note">Reading…</p>
    </section>
  );
}
