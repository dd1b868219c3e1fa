import type { FastifyRequest } from 'fastify';
import { MESSAGES } from '@shared/contract';
import { assertNoNullCharacters } from '../http/body-parsers';
import { badRequest, payloadTooLarge, unsupportedMediaType } from '../http/errors';
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
 * Reads a multipart body: text fields into memory, each allowed file streamed to a staged temp file
 * under its own size limit. On any failure every staged file is removed before the error goes out.
 */
export async function readUpload(
  request: FastifyRequest,
  mediaRoot: string,
  fileLimits: Record<string, number>,
): Promise<Upload> {
  if (!request.isMultipart()) throw unsupportedMediaType(MESSAGES.expectedMultipart);
  const largest = Math.max(...Object.values(fileLimits));
  const upload: Upload = { fields: {}, files: {} };
  try {
    for await (const part of request.parts({
      limits: { fileSize: largest + 1, files: Object.keys(fileLimits).length, fields: 20, fieldSize: 64 * 1024 },
    })) {
      if (part.type === 'field') {
        upload.fields[part.fieldname] = typeof part.value === 'string' ? part.value : String(part.value);
        continue;
      }
      const limit = fileLimits[part.fieldname];
      if (limit === undefined || upload.files[part.fieldname]) {
        part.file.resume();
        throw badRequest({ [part.fieldname]: ['Unexpected file.'] });
      }
      // An empty file input still sends a part with no name and no bytes: treat it as no file.
      const staged = await stageStream(part.file, mediaRoot, limit);
      if (!part.filename && staged.size === 0) {
        await discardStaged(staged);
        continue;
      }
      upload.files[part.fieldname] = { staged, fileName: part.filename };
    }
    assertNoNullCharacters(upload.fields);
    return upload;
  } catch (error) {
    for (const file of Object.values(upload.files)) await discardStaged(file?.staged);
    if (error instanceof FileTooLargeError) throw payloadTooLarge(error.message);
    throw error;
  }
}
