import type { Profile } from '@shared/contract';
import { API } from '@shared/contract/paths';
import { apiRequest } from '@web/lib/api-client';
import { withKnownPlan } from './profile';

export interface ProfileUpdate {
  first_name: string;
  last_name: string;
  profile_image?: Blob | undefined;
}

/** PUT multipart; `onProgress` gets 0–100 while the body is sent, when the browser can tell. */
export function updateProfile(update: ProfileUpdate, onProgress: (percent: number) => void): Promise<Profile> {
  const form = new FormData();
  form.append('first_name', update.first_name);
  form.append('last_name', update.last_name);
  if (update.profile_image) form.append('profile_image', update.profile_image, 'profile.jpg');
  return apiRequest<Profile>(API.profileUpdate, {
    method: 'PUT',
    body: form,
    onUploadProgress: (fraction) => onProgress(Math.round(fraction * 100)),
  }).then(withKnownPlan);
}
