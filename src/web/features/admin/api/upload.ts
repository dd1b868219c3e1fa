import type { z } from 'zod';
import { ApiError, authHeader } from '@web/lib/api-client';

/**
 * Sends a multipart form with XMLHttpRequest, because fetch cannot report upload progress.
 * `onProgress` gets the fraction of bytes sent (0–1).
 */
export function uploadWithProgress<T>(
  path: string,
  form: FormData,
  schema: z.ZodType<T>,
  onProgress: (fraction: number) => void,
  method: 'POST' | 'PUT' = 'POST',
): { promise: Promise<T>; abort: () => void } {
  const xhr = new XMLHttpRequest();
  const promise = new Promise<T>((resolve, reject) => {
    xhr.open(method, path);
    xhr.setRequestHeader('Accept', 'application/json');
    for (const [name, value] of Object.entries(authHeader())) xhr.setRequestHeader(name, value);
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable && event.total > 0) onProgress(event.loaded / event.total);
    };
    xhr.onload = () => {
      let body: unknown = undefined;
      try {
        body = xhr.responseText ? JSON.parse(xhr.responseText) : undefined;
      } catch {
        body = xhr.responseText;
      }
      if (xhr.status >= 200 && xhr.status < 300) resolve(schema.parse(body));
      else reject(new ApiError(xhr.status, body));
    };
    xhr.onerror = () => reject(new ApiError(0, { detail: 'The upload failed: the connection was lost.' }));
    xhr.onabort = () => reject(new ApiError(0, { detail: 'The upload was cancelled.' }));
    xhr.send(form);
  });
  return { promise, abort: () => xhr.abort() };
}
