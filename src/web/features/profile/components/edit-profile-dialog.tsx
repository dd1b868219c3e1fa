import { useEffect, useRef, useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { toast } from 'sonner';
import { z } from 'zod';
import { useQueryClient } from '@tanstack/react-query';
import { ImageUp, Lock, UserRound } from 'lucide-react';
import { PROFILE_IMAGE } from '@shared/constants';
import type { Profile } from '@shared/contract';
import { hasVisibleText, typedTextRefusal } from '@shared/contract/plain';
import { Button } from '@web/components/ui/button';
import { Dialog, DialogContent } from '@web/components/ui/dialog';
import { Field, FieldError } from '@web/components/ui/input';
import { SubmitButton } from '@web/components/ui/submit-button';
import { ApiError, endedTheSession, retryAfterMs } from '@web/lib/api-client';
import { OFFLINE_MESSAGE, failureOver, isNetworkFailure, toastFailure } from '@web/lib/change';
import { showServerFieldErrors } from '@web/lib/server-field-errors';
import { sessionStore } from '@web/lib/session';
import { announceProfileSaved, profileQuery } from '../api/profile';
import { updateProfile } from '../api/update-profile';
import { useSaveProgress } from '../hooks/use-save-progress';
import { imageSize, resizeProfileImage } from '../lib/resize-image';
import { MAX_PICKED_IMAGE_BYTES, PICKABLE_IMAGE_TYPES, PROFILE_MESSAGES as M } from '../messages';
import { useFocusFirstError } from '@web/lib/form-field';
import { useFitsItsText } from '@web/lib/use-fits-its-text';

export const UPDATE_FAILED = 'An error occurred, please try again.';
/** The save's failures, by toastFailure: one at a time, taken away once a save works. */
const SAVE_PROFILE = 'save profile';

/** A name's field; `stored`, the name as the profile holds it, is not refused as typed (decision 129). */
const name = (missing: string, stored: string) =>
  z
    .string()
    .trim()
    .refine(hasVisibleText, missing)
    .max(150, M.nameTooLong)
    .refine((text) => typedTextRefusal(text, stored) === undefined, {
      error: (issue) => typedTextRefusal(issue.input as string, stored),
    });
const formSchemaOf = (profile: Profile) =>
  z.object({
    first_name: name(M.firstNameMissing, profile.first_name),
    last_name: name(M.lastNameMissing, profile.last_name),
  });
type FormValues = z.infer<ReturnType<typeof formSchemaOf>>;

/** Why a picked file cannot be used, or undefined when it can (docs/product/errors-and-limits.md#upload-limits). */
export function imageProblem(file: File): string | undefined {
  if (!PICKABLE_IMAGE_TYPES.includes(file.type)) return M.notAnImage;
  if (file.size > MAX_PICKED_IMAGE_BYTES) return M.imageTooLarge;
  return undefined;
}

/** The picked file and a blob: URL to preview it, released when another is picked or the dialog goes. */
function usePickedImage() {
  const [picked, setPicked] = useState<{ file: File; url: string } | undefined>(undefined);
  useEffect(() => () => picked && URL.revokeObjectURL(picked.url), [picked]);
  const set = (file: File | undefined) => setPicked(file ? { file, url: URL.createObjectURL(file) } : undefined);
  return [picked?.file, picked?.url, set] as const;
}

/**
 * The e-mail, read-only here (it changes under Account, with the password): a field of one line that grows a line
 * for each one a long address wraps onto, so a phone shows it whole (docs/decisions/079-a-phone-shows-the-whole-text.md).
 */
function LockedEmail({ email }: { email: string }) {
  const field = useFitsItsText(email, true);
  return (
    <textarea
      ref={field}
      id="email"
      value={email}
      readOnly
      aria-readonly
      aria-multiline={false}
      aria-describedby="email-hint"
      rows={1}
      className="h-11 w-full cursor-default resize-none overflow-y-hidden rounded-xl border border-dashed border-line bg-transparent px-4 py-[9px] leading-6 text-fg-muted wrap-anywhere focus-visible:outline-2 focus-visible:outline-focus-ring"
    />
  );
}

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
  const [image, preview, setImage] = usePickedImage();
  const [imageError, setImageError] = useState<string | undefined>(undefined);
  const [saving, setSaving] = useState(false);
  const { progress, begin, report, end } = useSaveProgress();
  const form = useForm<FormValues>({
    resolver: zodResolver(formSchemaOf(profile)),
    values: { first_name: profile.first_name, last_name: profile.last_name },
    // A profile read again while the dialog is open (changed in another tab) updates the names not typed in,
    // so Save does not put back the old ones; what the person typed stays.
    resetOptions: { keepDirtyValues: true },
    shouldFocusError: false,
  });
  const { formRef, focusFirstError } = useFocusFirstError();

  // Drops what was typed and the picked picture: the names are the profile's again (`saved`: as just saved) and
  // untyped, so a profile read anew replaces them. Without keepDirtyValues, or reset() would keep the typed ones.
  const discardEdits = (saved?: FormValues) => {
    form.reset(saved, { keepDirtyValues: false });
    setImage(undefined);
    setImageError(undefined);
  };

  // Cancel, Escape and × discard the edits: the next opening starts from the profile again.
  const close = () => {
    if (saving) return;
    discardEdits();
    onOpenChange(false);
  };

  // A picture is read (its size only) before it is kept: one that cannot be read, or whose canvas is
  // too large to draw (a small file can claim 20000 × 20000 px and hold the page for many seconds), is
  // refused at once. The latest pick wins.
  const picks = useRef(0);
  const pick = async (file: File | undefined) => {
    const pickNumber = ++picks.current;
    let problem = file && imageProblem(file);
    if (file && !problem) {
      problem = await imageSize(file).then(
        ({ width, height }) => (width * height > PROFILE_IMAGE.maxInputPixels ? M.imageTooManyPixels : undefined),
        () => M.unreadableImage,
      );
    }
    if (pickNumber !== picks.current) return;
    setImageError(problem);
    setImage(problem ? undefined : file);
  };

  const save = form.handleSubmit(async (values) => {
    setSaving(true);
    begin();
    try {
      let resized: Blob | undefined;
      if (image) {
        try {
          resized = await resizeProfileImage(image);
        } catch {
          // Named under the picker and not kept, as a file refused when picked.
          setImage(undefined);
          setImageError(M.unreadableImage);
          return;
        }
      }
      const saved = await updateProfile({ ...values, profile_image: resized }, report);
      report(100);
      // The session's user names the person in the bar, its badge and menus, in every tab.
      const user = sessionStore.get().user;
      if (user) sessionStore.setUser({ ...user, first_name: saved.first_name, last_name: saved.last_name });
      announceProfileSaved();
      // Saved on a press again, the earlier failure's toast goes (decision 150).
      failureOver(SAVE_PROFILE);
      await queryClient.invalidateQueries({ queryKey: profileQuery().queryKey });
      discardEdits({ first_name: saved.first_name, last_name: saved.last_name });
      onOpenChange(false);
      toast.success(M.saved);
    } catch (error) {
      if (endedTheSession(error)) return;
      showServerFieldErrors(error, ['first_name', 'last_name'], form.setError, focusFirstError);
      if (error instanceof ApiError && error.status === 413) setImageError(M.uploadTooLarge);
      else if (error instanceof ApiError && error.fieldErrors.profile_image)
        setImageError(error.fieldErrors.profile_image);
      toastFailure(
        error,
        isNetworkFailure(error)
          ? OFFLINE_MESSAGE
          : error instanceof ApiError && error.status === 429
            ? // Only a picture is limited; the server's words count seconds.
              M.imageThrottled(Math.ceil(retryAfterMs(error) / 60_000))
            : UPDATE_FAILED,
        SAVE_PROFILE,
      );
    } finally {
      end();
      setSaving(false);
    }
  }, focusFirstError);

  const shown = preview ?? profile.profile_image;
  return (
    <Dialog open={open} onOpenChange={(next) => (next ? onOpenChange(true) : close())}>
      <DialogContent title="Edit profile">
        <form ref={formRef} onSubmit={save} noValidate className="flex flex-col gap-4">
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
          <div className="flex flex-col gap-1.5">
            <label htmlFor="email" className="flex items-center gap-1.5 text-sm font-medium">
              E-mail <Lock aria-hidden className="h-3.5 w-3.5 text-fg-muted" />
            </label>
            <LockedEmail email={profile.user_email} />
            <p id="email-hint" className="text-xs text-fg-muted">
              Change it under Account, with your password.
            </p>
          </div>
          <div className="flex flex-col gap-2">
            <span id="profile_image-label" className="text-sm font-medium">
              Profile image <span className="font-normal text-fg-muted">(optional)</span>
            </span>
            <div className="flex items-center gap-4">
              {shown ? (
                <img
                  src={shown}
                  alt={preview ? 'Preview of your new profile image' : 'Your profile image'}
                  className="h-16 w-16 shrink-0 rounded-full object-cover ring-2 ring-accent/60"
                />
              ) : (
                <span className="flex h-16 w-16 shrink-0 items-center justify-center rounded-full bg-black/5 dark:bg-white/10">
                  <UserRound aria-hidden className="h-7 w-7 text-fg-muted" />
                </span>
              )}
              <div className="flex min-w-0 flex-col gap-1">
                {/* The native input stays for keyboards and screen readers; the label is its visible button. */}
                <input
                  id="profile_image"
                  type="file"
                  accept={PICKABLE_IMAGE_TYPES.join(',')}
                  aria-labelledby="profile_image-label profile_image-button"
                  aria-invalid={imageError ? true : undefined}
                  aria-describedby={imageError ? 'profile_image-error' : 'profile_image-hint'}
                  onChange={(event) => {
                    void pick(event.target.files?.[0]);
                    event.target.value = '';
                  }}
                  className="peer sr-only"
                />
                <label
                  id="profile_image-button"
                  htmlFor="profile_image"
                  className="btn btn-secondary btn-sm w-fit peer-focus-visible:outline-2 peer-focus-visible:outline-offset-2 peer-focus-visible:outline-focus-ring"
                >
                  <ImageUp aria-hidden className="h-4 w-4" /> {image ? 'Choose another' : 'Choose a picture'}
                </label>
                <p id="profile_image-hint" className="text-xs [overflow-wrap:anywhere] text-fg-muted">
                  {image ? (
                    <>
                      <bdi>{image.name}</bdi>: saved when you press Save.
                    </>
                  ) : (
                    M.imageHint
                  )}
                </p>
              </div>
            </div>
            <FieldError id="profile_image" error={imageError} announce />
          </div>
          {progress !== null ? (
            <div className="flex flex-col gap-1">
              <progress value={progress} max={100} aria-label="Upload progress" className="h-2 w-full accent-accent" />
              <span className="text-xs text-fg-muted">{progress}%</span>
            </div>
          ) : null}
          <div className="mt-2 flex justify-end gap-2">
            <Button type="button" variant="secondary" onClick={close} busy={saving}>
              Cancel
            </Button>
            <SubmitButton pending={saving} pendingLabel="Saving">
              Save
            </SubmitButton>
          </div>
        </form>
      </DialogContent>
    </Dialog>
  );
}
