import { CUSTOM_THEME_ID, DEFAULT_THEME_ID, findTheme, THEME_FONTS } from '@shared/themes';
import type { CustomTheme } from '@shared/contract';

// Apart from player-storage (zod) so that the pre-rendered shared page can show a theme's sample
// without the contract (docs/decisions/020-lean-pre-rendered-auth-pages.md).

/** How the flash screen looks with these settings: its background and the messages' font. */
export function sessionLook(settings: { theme: string; customTheme?: CustomTheme }) {
  const look = settings.theme === CUSTOM_THEME_ID ? settings.customTheme : findTheme(settings.theme);
  const { background, font } = look ?? findTheme(DEFAULT_THEME_ID)!;
  return { background, fontFamily: THEME_FONTS[font] };
}
