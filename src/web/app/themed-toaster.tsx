import { Toaster } from 'sonner';
import { useTheme } from '@web/lib/theme';

export default function ThemedToaster() {
  const theme = useTheme();
  // Below the 64 px header, so toasts never cover the theme toggle or the account menu.
  return (
    <Toaster
      theme={theme}
      position="top-right"
      offset={{ top: 76 }}
      mobileOffset={{ top: 72 }}
      richColors
      closeButton
    />
  );
}
