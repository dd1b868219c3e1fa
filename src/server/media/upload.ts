import type { FastifyRequest } from 'fastify';
import { MESSAGES } from '@shared/contract';
import { assertStorableText, encodedBodyError } from '../http/body-parsers';
import { badRequest, nonFieldError, payloadTooLarge, unsupportedMediaType } from '../http/errors';
import { formatBytes } from '@shared/bytes';
import { formBodySize, formParts, type FormLimits, type FormPart } from './form-data';
import { discardStaged, FileTooLargeError, stageStream, type StagedFile } from './store';

export interface UploadedFile {
  staged: StagedFile;
  fileName: string;
}

export interface Upload {
  fields: Record<string, string>;
  files: Record<string, UploadedFile | undefined>;
}

/**
 * Characters a file name loses when read, as Django's multipart parser drops a name's unprintable
 * ones: control characters (NUL among them, which PostgreSQL cannot store in text) and lone
 * surrogates (which it would store as U+FFFD). A track named from its file keeps the rest.
 */
const UNSTORABLE_IN_FILE_NAME = /[\p{Cc}\p{Cs}]/gu;

export const cleanFileName = (fileName: string) => fileName.replace(UNSTORABLE_IN_FILE_NAME, '');

/** How long the parser may go without a next part once the whole body has arrived. */
export const MULTIPART_STALL_MS = 2000;
const STALL_CHECK_MS = 100;

/**
 * The parts of a multipart body (src/server/media/form-data.ts), and a parser that stops without finishing is
 * answered 400 instead of holding the request open for good, should it ever: @fastify/multipart's did so on
 * some bodies with a part that has no Content-Disposition (found by the fuzz test). Once the body has
 * wholly arrived the parser has nothing left to wait for, so a stall then is final.
 */
export async function* multipartParts(request: FastifyRequest, limits: FormLimits): AsyncGenerator<FormPart> {
  const encoded = encodedBodyError(request);
  if (encoded) throw encoded;
  const parts = formParts(request, limits);
  let finished = false;
  try {
    for (;;) {
      let timer: NodeJS.Timeout | undefined;
      const stalled = new Promise<never>((_resolve, reject) => {
        let completeSince: number | undefined;
        timer = setInterval(() => {
          if (!request.raw.complete) return;
          completeSince ??= Date.now();
          if (Date.now() - completeSince >= MULTIPART_STALL_MS) reject(nonFieldError(MESSAGES.malformedMultipart));
        }, STALL_CHECK_MS);
      });
      let next: IteratorResult<FormPart>;
      try {
        next = await Promise.race([parts.next(), stalled]);
      } finally {
        clearInterval(timer);
      }
      if (next.done) {
        finished = true;
        return;
      }
      yield next.value;
    }
  } finally {
    // Left early (an error, a stall): let the parser go, as a for-await over its parts would.
    if (!finished) void parts.return?.(undefined).catch(() => undefined);
  }
}

/** The text fields an upload read by `readUpload` may hold beside its files. */
const UPLOAD_FIELDS = { fields: 20, fieldSize: 64 * 1024 };

/** The largest body `readUpload` takes with one file of `fileBytes`: what a larger Content-Length cannot be. */
export const uploadBodySize = (fileBytes: number) => formBodySize([fileBytes], UPLOAD_FIELDS);

/**
 * Reads a multipart body: text fields into memory, each allowed file streamed to a staged temp file
 * under its own size limit. On any failure every staged file is removed before the error goes out.
 * `beforeFile` is asked as each file begins, with the fields sent before it: what it throws answers
 * the request, the file and the rest of the body unread.
 */
export async function readUpload(
  request: FastifyRequest,
  mediaRoot: string,
  fileLimits: Record<string, number>,
  {
    beforeFile,
    room,
  }: {
    beforeFile?: (fields: Record<string, string>) => Promise<void>;
    /**
     * The bytes a file of `field` may still take (a quota's room) and its refusal past them: staging stops there, so
     * a body of no declared length (chunked) costs no more disk than could be kept.
     */
    room?: { field: string; bytes: number; refusal: () => Error };
  } = {},
): Promise<Upload> {
  if (!request.isMultipart()) throw unsupportedMediaType(MESSAGES.expectedMultipart);
  const limits = Object.values(fileLimits);
  const largest = Math.max(...limits);
  const fields = UPLOAD_FIELDS;
  const upload: Upload = { fields: {}, files: {} };
  try {
    for await (const part of multipartParts(request, {
      // One byte past the largest limit, so that staging (which knows each file's own limit) names a file just over
      // it; a file further over is stopped by the form's stream first, in the same words.
      fileSize: largest + 1,
      fileTooLarge: new FileTooLargeError(largest).message,
      files: limits.length,
      ...fields,
      parts: 1000,
      // Every file at its limit, every field at its: a body past that is refused as a file too large is (or, its
      // fields past theirs, as a request too large: formParts).
      bodySize: formBodySize(limits, fields),
      bodyTooLarge:
        limits.length === 1
          ? new FileTooLargeError(largest).message
          : `The files are larger than ${formatBytes(limits.reduce((sum, bytes) => sum + bytes, 0))} together.`,
    })) {
      if (part.type === 'field') {
        upload.fields[part.fieldname] = part.value;
        continue;
      }
      const limit = fileLimits[part.fieldname];
      if (limit === undefined || upload.files[part.fieldname]) {
        part.file.resume();
        throw badRequest({ [part.fieldname]: ['Unexpected file.'] });
      }
      await beforeFile?.(upload.fields);
      // An empty file input still sends a part with no name and no bytes: treat it as no file.
      const roomFirst = room?.field === part.fieldname && room.bytes < limit ? room : undefined;
      const staged = await stageStream(part.file, mediaRoot, roomFirst?.bytes ?? limit).catch((error: unknown) => {
        throw roomFirst && error instanceof FileTooLargeError ? roomFirst.refusal() : error;
      });
      if (!part.filename && staged.size === 0) {
        await discardStaged(staged);
        continue;
      }
      upload.files[part.fieldname] = { staged, fileName: cleanFileName(part.filename) };
    }
    assertStorableText(upload.fields);
    return upload;
  } catch (error) {
    for (const file of Object.values(upload.files)) await discardStaged(file?.staged);
    if (error instanceof FileTooLargeError) throw payloadTooLarge(error.message);
    throw error;
  }
}
