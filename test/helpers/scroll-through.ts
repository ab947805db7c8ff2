import type { Page } from "playwright-core";

/**
 * Scrolls the page down a screen at a time to its end, as a reader would, so that every section
 * the page renders on approach (web/src/components/SectionWhenNear.tsx) is rendered; waits until
 * no placeholder is left, then scrolls back to the top.
 */
export async function scrollThrough(page: Page): Promise<void> {
  await page.evaluate(async () => {
    const twoFrames = () => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
    // The page grows as sections arrive: its height is read again at each step.
    for (let y = innerHeight; y < document.documentElement.scrollHeight; y += innerHeight) {
      scrollTo(0, y);
      await twoFrames();
    }
  });
  await page.waitForFunction(() => document.querySelector('[aria-busy="true"]') === null);
  await page.evaluate(() => scrollTo(0, 0));
}
