import { Moon, Sun } from 'lucide-react';
import { setTheme, useTheme } from '@web/lib/theme';
import { Button } from '@web/components/ui/button';

export function ThemeToggle() {
  const theme = useTheme();
  const dark = theme === 'dark';
  return (
    <Button
      variant="ghost"
      size="icon"
      aria-label="Dark mode"
      aria-pressed={dark}
      title={dark ? 'Switch to light mode' : 'Switch to dark mode'}
      onClick={() => setTheme(dark ? 'light' : 'dark')}
    >
      {/* The icon follows the page's class, so it is right before hydration (pre-rendered home). */}
      <Moon aria-hidden className="hidden h-5 w-5 dark:block" />
      <Sun aria-hidden className="h-5 w-5 dark:hidden" />
    </Button>
  );
}
