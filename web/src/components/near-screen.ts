import { useEffect, useState } from "preact/hooks";

/**
 * True once the element is within `margin` (a CSS length, or a percentage of the viewport's
 * height) of the viewport, and from then on: what has been shown once stays.
 */
export function useNearScreen(ref: { current: Element | null }, margin: string): boolean {
  const [near, setNear] = useState(false);
  useEffect(() => {
    if (near || !ref.current) return;
    const observer = new IntersectionObserver((entries) => entries.some((e) => e.isIntersecting) && setNear(true), {
      rootMargin: `${margin} 0px`,
    });
    observer.observe(ref.current);
    return () => observer.disconnect();
  }, [near, margin]);
  return near;
}
