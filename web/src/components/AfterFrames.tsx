/**
 * Its children after `frames` painted frames, `fallback` until then. The sections below the first
 * screen go in one per frame: the whole page in one render was one long task (the script, then
 * the layout of every table), and one section a frame keeps each task short while the fallback
 * (a placeholder of the section's size) holds the space. Preact runs effects after the browser
 * has painted (or after 100 ms in a hidden tab), so each count is one frame.
 */
import type { ComponentChildren } from "preact";
import { useEffect, useState } from "preact/hooks";

export function AfterFrames({
  frames,
  fallback,
  children,
}: {
  frames: number;
  fallback: ComponentChildren;
  children: ComponentChildren;
}) {
  const [passed, setPassed] = useState(0);
  useEffect(() => {
    if (passed < frames) setPassed(passed + 1);
  }, [passed, frames]);
  return <>{passed >= frames ? children : fallback}</>;
}
