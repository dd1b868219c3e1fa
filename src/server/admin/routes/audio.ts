import { readUpload } from '../../media/upload';
import {
  ADMIN_API,
  adminAudioItemListSchema,
  adminAudioItemSchema,
  audioItemParamsSchema,
  audioItemUpdateSchema,
  audioKindParamsSchema,
  UPLOAD_LIMITS,
} from '@shared/contract';
import * as audio from '../audio-service';
import {
  errors,
  uploadErrors,
  noContent,
  tags,
  multipartBody,
  staffUploadSlot,
  stillStaff,
  type AdminRoutes,
} from './shared';

/** The audio items of the three libraries, uploads included. */
export const registerAudioRoutes: AdminRoutes = ({ app, store, db }) => {
  const audioLimits = { audio_file: UPLOAD_LIMITS.audioBytes, cover_image: UPLOAD_LIMITS.coverBytes };
  app.get(
    ADMIN_API.audioItems,
    {
      schema: {
        tags,
        summary: 'Audio items of a library',
        params: audioKindParamsSchema,
        response: { 200: adminAudioItemListSchema, ...errors },
      },
    },
    async (request) => audio.listAudioItems(store, request.params.kind),
  );
  app.post(
    ADMIN_API.audioItems,
    {
      ...staffUploadSlot(db),
      schema: {
        tags,
        summary: 'Upload an audio item (multipart: name, description, audio_file, cover_image)',
        ...multipartBody,
        params: audioKindParamsSchema,
        response: { 201: adminAudioItemSchema, ...uploadErrors },
      },
    },
    async (request, reply) => {
      const upload = await readUpload(request, store.files.stagingRoot, audioLimits);
      const item = await audio.createAudioItem(store, {
        kind: request.params.kind,
        fields: upload.fields,
        audio: upload.files.audio_file?.staged,
        cover: upload.files.cover_image?.staged,
        assertUploader: stillStaff(request),
      });
      return reply.code(201).send(item);
    },
  );
  app.patch(
    ADMIN_API.audioItem,
    {
      schema: {
        tags,
        summary: 'Edit the name or description',
        params: audioItemParamsSchema,
        body: audioItemUpdateSchema,
        response: { 200: adminAudioItemSchema, ...errors },
      },
    },
    async (request) => audio.updateAudioItem(store, request.params.kind, request.params.id, request.body),
  );
  app.post(
    ADMIN_API.audioItemFiles,
    {
      ...staffUploadSlot(db),
      schema: {
        tags,
        summary: 'Replace the audio file and/or cover (multipart: audio_file, cover_image)',
        ...multipartBody,
        params: audioItemParamsSchema,
        response: { 200: adminAudioItemSchema, ...uploadErrors },
      },
    },
    async (request) => {
      const upload = await readUpload(request, store.files.stagingRoot, audioLimits);
      return audio.replaceAudioFiles(
        store,
        request.params.kind,
        request.params.id,
        {
          audio: upload.files.audio_file?.staged,
          cover: upload.files.cover_image?.staged,
          assertUploader: stillStaff(request),
        },
        request.log,
      );
    },
  );
  app.delete(
    ADMIN_API.audioItem,
    {
      schema: {
        tags,
        summary: 'Delete an audio item and its files',
        params: audioItemParamsSchema,
        response: { ...noContent, ...errors },
      },
    },
    async (request, reply) => {
      await audio.deleteAudioItem(store, request.params.kind, request.params.id, request.log);
      return reply.code(204).send(null);
    },
  );
};
