import * as Menu from '@radix-ui/react-dropdown-menu';
import type { ComponentProps } from 'react';
import { clsx } from 'clsx';

export const DropdownMenu = Menu.Root;
export const DropdownMenuTrigger = Menu.Trigger;
export const DropdownMenuLabel = Menu.Label;

export function DropdownMenuContent({ className, ...props }: ComponentProps<typeof Menu.Content>) {
  return (
    <Menu.Portal>
      <Menu.Content
        sideOffset={8}
        className={clsx(
          'z-50 min-w-56 rounded-2xl border border-line bg-surface-raised p-2 shadow-xl data-[state=open]:animate-fade-in',
          className,
        )}
        {...props}
      />
    </Menu.Portal>
  );
}

/** An item 44 px tall on a touch screen, as every button there answers a finger (styles.css, `.btn`). */
export function DropdownMenuItem({ className, ...props }: ComponentProps<typeof Menu.Item>) {
  return (
    <Menu.Item
      className={clsx(
        'flex cursor-pointer items-center gap-2 rounded-xl px-3 py-2 text-sm outline-none pointer-coarse:min-h-11 data-[highlighted]:bg-black/5 dark:data-[highlighted]:bg-white/10',
        className,
      )}
      {...props}
    />
  );
}
