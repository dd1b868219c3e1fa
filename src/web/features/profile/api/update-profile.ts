import { API, profileSchema, type Profile } from '@shared/contract';
import { ApiError, authHeader } from '@web/lib/api-client';

export interface ProfileUpdate {
  first_name: string;
  last_name: string;
  profile_image?: Blob | undefined;
}

/**
 * PUT multipart with XMLHttpRequest, because fetch reports no upload progress. `onProgress` gets
 * 0–100 while the body is sent, when the browser can tell (lengthComputable), else nothing.
 */
export function updateProfile(update: ProfileUpdate, onProgress: (percent: number) => void): Promise<Profile> {
  const form = new FormData();
  form.append('first_name', update.first_name);
  form.append('last_name', update.last_name);
  if (update.profile_image) form.append('profile_image', update.profile_image, 'profile.jpg');

  return new Promise((resolve, reject) => {
    const request = new XMLHttpRequest();
    request.open('PUT', API.profileUpdate);
    request.setRequestHeader('Accept', 'application/json');
    for (const [name, value] of Object.entries(authHeader())) request.setRequestHeader(name, value);
    request.upload.onprogress = (event) => {
      if (event.lengthComputable && event.total > 0) onProgress(Math.round((event.loaded / event.total) * 100));
    };
    request.onload = () => {
      let body: unknown;
      try {
        body = JSON.parse(request.responseText);
      } catch {
        body = request.responseText;
      }
      if (request.status >= 200 && request.status < 300) {
        const parsed = profileSchema.safeParse(body);
        if (parsed.success) resolve(parsed.data);
        else reject(new ApiError(request.status, body));
      } else {
        reject(new ApiError(request.status, body));
      }
    };
    request.onerror = () => reject(new ApiError(0, undefined));
    request.onabort = () => reject(new ApiError(0, undefined));
    request.send(form);
  });
}
