/**
 * A section below the first screen: its placeholder until the report is read and the placeholder
 * comes within a screen of the viewport, then the section `frames` frames later. Rendering every
 * section at load was most of the page's main-thread work on a phone (Lighthouse's long tasks were
 * their renders and layouts) for sections the reader may never scroll to; the chart was already
 * read this way. The placeholder holds about the section's height, so its arrival moves nothing
 * on the screen.
 */
import type { JSX } from "preact";
import { useRef } from "preact/hooks";
import type { PorReport } from "../api.js";
import { AfterFrames } from "./AfterFrames.js";
import { useNearScreen } from "./near-screen.js";
import { PendingCard } from "./PendingCard.js";

/** How far below the viewport a section starts rendering: one screen, so a reader scrolling finds it there. */
const AHEAD = "100%";

export function SectionWhenNear({
  por,
  frames,
  title,
  size,
  section,
}: {
  por: PorReport | null;
  frames: number;
  title: string;
  size: string;
  section: (por: PorReport) => JSX.Element;
}) {
  const host = useRef<HTMLElement>(null);
  const near = useNearScreen(host, AHEAD);
  if (!por || !near) return <PendingCard host={host} title={title} size={size} />;
  return (
    <AfterFrames frames={frames} fallback={<PendingCard title={title} size={size} />}>
      {section(por)}
    </AfterFrames>
  );
}
