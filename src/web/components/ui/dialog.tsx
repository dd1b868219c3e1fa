import * as DialogPrimitive from '@radix-ui/react-dialog';
import { X } from 'lucide-react';
import { useRef, type ComponentProps, type ReactNode } from 'react';
import { clsx } from 'clsx';

export const Dialog = DialogPrimitive.Root;
export const DialogTrigger = DialogPrimitive.Trigger;
export const DialogClose = DialogPrimitive.Close;

/**
 * A modal: focus trapped inside, Escape closes, focus returns to what opened it. Radix returns focus
 * to a DialogTrigger; controlled dialogs opened by a plain button get the same through `opener`.
 */
export function DialogContent({
  title,
  description,
  children,
  className,
  onOpenAutoFocus,
  onCloseAutoFocus,
  placement = 'center',
  ...props
}: Omit<ComponentProps<typeof DialogPrimitive.Content>, 'title'> & {
  title: ReactNode;
  description?: ReactNode;
  /** Where it opens: the screen's middle, or near its top (menus, so they read from the top down). */
  placement?: 'center' | 'top';
}) {
  const opener = useRef<HTMLElement | null>(null);
  return (
    <DialogPrimitive.Portal>
      <DialogPrimitive.Overlay className="fixed inset-0 z-50 bg-night-950/60 backdrop-blur-sm data-[state=open]:animate-fade-in" />
      <DialogPrimitive.Content
        className={clsx(
          'fixed left-1/2 z-50 w-[calc(100%-2rem)] max-w-lg -translate-x-1/2 rounded-3xl border border-line bg-surface-raised p-6 shadow-2xl data-[state=open]:animate-fade-in',
          placement === 'top' ? 'top-4' : 'top-1/2 -translate-y-1/2',
          className,
        )}
        {...(description ? {} : { 'aria-describedby': undefined })}
        onOpenAutoFocus={(event) => {
          opener.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
          onOpenAutoFocus?.(event);
        }}
        onCloseAutoFocus={(event) => {
          onCloseAutoFocus?.(event);
          if (event.defaultPrevented || !opener.current?.isConnected) return;
          event.preventDefault();
          opener.current.focus();
        }}
        {...props}
      >
        <DialogPrimitive.Title className="pr-8 text-xl font-semibold wrap-anywhere">{title}</DialogPrimitive.Title>
        {description ? (
          // A block, not a paragraph, so that a description may hold paragraphs and a list.
          <DialogPrimitive.Description asChild>
            <div className="mt-2 text-fg-muted">{description}</div>
          </DialogPrimitive.Description>
        ) : null}
        <div className="mt-4">{children}</div>
        <DialogPrimitive.Close
          className="absolute right-4 top-4 rounded-full p-2 text-fg-muted hover:bg-black/5 pointer-coarse:right-3 pointer-coarse:top-3 pointer-coarse:p-3 dark:hover:bg-white/10"
          aria-label="Close"
        >
          <X aria-hidden className="h-5 w-5" />
        </DialogPrimitive.Close>
      </DialogPrimitive.Content>
    </DialogPrimitive.Portal>
  );
}
