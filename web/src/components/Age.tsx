/**
 * "3 min ago", kept current: the one element that re-renders on the clock (every 5 s), so the
 * tick never re-renders the page around it.
 */
import { useEffect, useState } from "preact/hooks";
import { age } from "../format.js";

const TICK_MS = 5_000;

export function Age({ sinceMs }: { sinceMs: number }) {
  const [now, setNow] = useState(Date.now());
  useEffect(() => {
    const t = setInterval(() => setNow(Date.now()), TICK_MS);
    return () => clearInterval(t);
  }, []);
  return <>{age((now - sinceMs) / 1000)}</>;
}
