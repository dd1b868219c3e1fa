import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { z } from 'zod';
import { useQueryClient } from '@tanstack/react-query';
import { toast } from 'sonner';
import type { Profile } from '@shared/contract';
import { Button } from '@web/components/ui/button';
import { Dialog, DialogContent } from '@web/components/ui/dialog';
import { Field } from '@web/components/ui/input';
import { Spinner } from '@web/components/ui/spinner';
import { showServerFieldErrors } from '@web/lib/server-field-errors';
import { profileQuery } from '../api/profile';
import { updateProfile } from '../api/update-profile';
import { useSaveProgress } from '../hooks/use-save-progress';
import { resizeProfileImage } from '../lib/resize-image';

export const UPDATE_FAILED = 'An error occurred, please try again.';

const formSchema = z.object({
  first_name: z.string().trim().min(1, 'Your first name is missing').max(150),
  last_name: z.string().trim().min(1, 'Your last name is missing').max(150),
});
type FormValues = z.infer<typeof formSchema>;

export function EditProfileDialog({
  profile,
  open,
  onOpenChange,
}: {
  profile: Profile;
  open: boolean;
  onOpenChange(open: boolean): void;
}) {
  const queryClient = useQueryClient();
  const [image, setImage] = useState<File | undefined>(undefined);
  const [saving, setSaving] = useState(false);
  const { progress, begin, report, end } = useSaveProgress();
  const form = useForm<FormValues>({
    resolver: zodResolver(formSchema),
    values: { first_name: profile.first_name, last_name: profile.last_name },
  });

  const save = form.handleSubmit(async (values) => {
    setSaving(true);
    begin();
    try {
      const resized = image ? await resizeProfileImage(image) : undefined;
      await updateProfile({ ...values, profile_image: resized }, report);
      report(100);
      await queryClient.invalidateQueries({ queryKey: profileQuery().queryKey });
      setImage(undefined);
      onOpenChange(false);
    } catch (error) {
      showServerFieldErrors(error, ['first_name', 'last_name'], form.setError);
      toast.error(UPDATE_FAILED);
    } finally {
      end();
      setSaving(false);
    }
  });

  return (
    <Dialog open={open} onOpenChange={(next) => !saving && onOpenChange(next)}>
      <DialogContent title="Edit profile">
        <form onSubmit={save} noValidate className="flex flex-col gap-4">
          <div className="grid gap-4 sm:grid-cols-2">
            <Field
              id="first_name"
              label="First name"
              autoComplete="given-name"
              error={form.formState.errors.first_name?.message}
              {...form.register('first_name')}
            />
            <Field
              id="last_name"
              label="Last name"
              autoComplete="family-name"
              error={form.formState.errors.last_name?.message}
              {...form.register('last_name')}
            />
          </div>
          <Field id="email" label="E-mail" value={profile.user_email} readOnly aria-readonly className="opacity-80" />
          <div className="flex flex-col gap-1.5">
            <label htmlFor="profile_image" className="text-sm font-medium">
              Profile image <span className="font-normal text-fg-muted">(optional)</span>
            </label>
            <input
              id="profile_image"
              type="file"
              accept="image/png,image/jpeg,image/webp,image/gif,image/avif"
              onChange={(event) => setImage(event.target.files?.[0])}
              className="text-sm file:mr-3 file:rounded-full file:border-0 file:bg-surface file:px-4 file:py-2 file:text-fg"
            />
          </div>
          {progress !== null ? (
            <div className="flex flex-col gap-1">
              <progress value={progress} max={100} aria-label="Upload progress" className="h-2 w-full accent-accent" />
              <span className="text-xs text-fg-muted">{progress}%</span>
            </div>
          ) : null}
          <div className="mt-2 flex justify-end gap-2">
            <Button type="button" variant="secondary" onClick={() => onOpenChange(false)} disabled={saving}>
              Cancel
            </Button>
            {saving ? <Spinner label="Saving" className="h-11 w-24" /> : <Button type="submit">Save</Button>}
          </div>
        </form>
      </DialogContent>
    </Dialog>
  );
}
