/**
 * A pre-rendered page shows its buttons before its script has arrived, and a click on a button then has
 * nothing to run. The page's inline loader (build/vite-plugins.ts, startAfterFirstPaint) keeps the
 * buttons clicked meanwhile; the page takes them when React starts (from then on React replays clicks
 * that come during hydration itself) and clicks them again once hydrated, so a tap on the theme toggle
 * or a frequency card in the first second is answered instead of lost. Only buttons that do nothing by
 * themselves are kept (outside a form, or of type button): links work without the script, and a form's
 * submit button is disabled until then (SubmitButton).
 */
export const EARLY_CLICKS_GLOBAL = '__innerwaveEarlyClicks';

/** The loader's part, inline in every pre-rendered page: keeps the clicked buttons until taken. */
export const EARLY_CLICKS_RECORDER = `(function(){var q=[];function k(e){var b=e.target&&e.target.closest&&e.target.closest('button');if(b&&!b.disabled&&(b.type==='button'||!b.form))q.push(b)}addEventListener('click',k,true);window.${EARLY_CLICKS_GLOBAL}=function(){removeEventListener('click',k,true);return q}})();`;

/** Stops keeping clicks and returns the buttons clicked so far (none on a page without the loader). */
export function takeEarlyClicks(): HTMLButtonElement[] {
  const take = (window as unknown as Record<string, (() => HTMLButtonElement[]) | undefined>)[EARLY_CLICKS_GLOBAL];
  return take ? take() : [];
}

/** Clicks again each kept button that hydration kept in the page; a page rendered afresh has none left. */
export function replayEarlyClicks(buttons: HTMLButtonElement[]) {
  for (const button of buttons.splice(0)) {
    if (button.isConnected && !button.disabled) button.click();
  }
}
