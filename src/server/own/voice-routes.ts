import multipart from '@fastify/multipart';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  API,
  apiErrorSchema,
  detailErrorSchema,
  myVoiceSchema,
  planRequiredErrorSchema,
  VOICE_RECORDINGS,
  voiceRecordingSchema,
} from '@shared/contract';
import { currentUser } from '../auth/authenticate';
import type { AppContext } from '../context';
import { readUpload } from '../media/upload';
import { holdUploadSlot, withUploadSlot } from '../media/upload-slots';
import { routeKit, userOf } from './route-kit';
import { assertFeature } from './service';
import { assertRoomForTake, deleteVoiceRecording, listVoiceRecordings, recordVoice } from './voice';

// One's own voice (docs/product/api.md#own-voice): listed and deleted on any plan (what a downgrade
// leaves stays one's own), recorded on Pro, where the spoken affirmations are.

export const ownVoiceRoutes: FastifyPluginAsyncZod<AppContext> = async (app, ctx) => {
  const { db } = ctx.database;
  const { described, deleteById } = routeKit(app, db, 'own content');
  await app.register(multipart);

  app.get(
    API.myVoice,
    described('Own voice: the recordings, one per message text', {
      response: { 200: myVoiceSchema, 401: detailErrorSchema },
    }),
    async (request) => listVoiceRecordings(db, ctx.media, userOf(request)),
  );
  app.post(
    API.myVoice,
    {
      // The plan is checked before a byte of the upload is read, and `recordVoice` asks again once the body is in and
      // as the file and row are kept, for a plan that ended meanwhile (docs/product/plans.md); a person's uploads
      // under way at once are few (docs/decisions/074-a-persons-uploads-at-once-are-few.md).
      ...withUploadSlot(async (request, reply) => {
        await assertFeature(db, userOf(request), 'spokenSubliminals');
        await holdUploadSlot(db, request, reply, userOf(request), 'own-voice');
      }),
      ...described(
        'Record a message (multipart: text, and audio_file as 16-bit mono PCM WAV), Pro; a new take of a text replaces its recording',
        {
          consumes: ['multipart/form-data'],
          response: {
            200: voiceRecordingSchema.describe('A new take of a text that had one'),
            201: voiceRecordingSchema,
            400: apiErrorSchema,
            401: detailErrorSchema,
            403: planRequiredErrorSchema.or(detailErrorSchema),
            409: detailErrorSchema,
            413: apiErrorSchema,
            415: apiErrorSchema,
          },
        },
      ),
    },
    async (request, reply) => {
      const upload = await readUpload(
        request,
        ctx.mediaFiles.stagingRoot,
        { audio_file: VOICE_RECORDINGS.maxFileBytes },
        // A full voice refuses a new text before its take streams in; a new take of a text it has still goes.
        { beforeFile: (fields) => assertRoomForTake(db, userOf(request), fields.text) },
      );
      const { recording, replaced } = await recordVoice(
        db,
        ctx.mediaFiles,
        ctx.media,
        currentUser(request),
        {
          staged: upload.files.audio_file?.staged,
          text: upload.fields.text,
        },
        request.log,
      );
      return reply.code(replaced ? 200 : 201).send(recording);
    },
  );
  deleteById(API.myVoiceRecording, 'Delete a recording of one’s own voice', (database, userId, id, log) =>
    deleteVoiceRecording(database, ctx.mediaFiles, userId, id, log),
  );
};
