/**
 * A section's place while its data is read: its title and a box of about its final height
 * (`.pending-<size>` in style.css), so what loads later fills the space instead of pushing.
 */
export function PendingCard({ title, size }: { title: string; size: string }) {
  return (
    <section class={`card pending pending-${size}`} aria-busy="true">
      <h2>{title}</h2>
      <p class="note">Reading…</p>
    </section>
  );
}
