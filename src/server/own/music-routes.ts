import multipart from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  API,
  apiErrorSchema,
  detailErrorSchema,
  OWN_MUSIC,
  ownMusicSchema,
  ownTrackSchema,
  planRequiredErrorSchema,
} from '@shared/contract';
import { currentUser } from '../auth/authenticate';
import type { AppContext } from '../context';
import { readUpload } from '../media/upload';
import { holdUploadSlot, withUploadSlot } from '../media/upload-slots';
import { declaredLength } from '../http/request-body';
import {
  addOwnTrack,
  admitTrackUpload,
  deleteOwnTrack,
  listOwnMusic,
  OWN_MUSIC_UPLOAD,
  type AdmittedTrack,
} from './music';
import { routeKit, userOf } from './route-kit';
import { assertFeature } from './service';

// One's own music (docs/product/api.md#own-music): listed and deleted on any plan (what a downgrade
// leaves stays one's own), added on Pro.

export const ownMusicRoutes: FastifyPluginAsyncZod<AppContext> = async (app, ctx) => {
  const { db } = ctx.database;
  const { described, deleteById } = routeKit(app, db, 'own content');
  await app.register(multipart);
  /** Each upload's room, from its slot (taken before the body) to its handler. */
  const admitted = new WeakMap<FastifyRequest, AdmittedTrack>();

  app.get(
    API.myMusic,
    described('Own music: the tracks, and how much of the quota they use', {
      response: { 200: ownMusicSchema, 401: detailErrorSchema },
    }),
    async (request) => listOwnMusic(db, ctx.media, userOf(request)),
  );
  app.post(
    API.myMusic,
    {
      // The plan, the number of tracks and the bytes left are checked before a byte of the upload is read, and
      // `addOwnTrack` asks again once the body is in and as the file and row are kept, for a plan that ended or a
      // track added meanwhile (docs/product/plans.md); uploads under way at once are as many as may be kept, and
      // take no more than the room together (docs/decisions/074-a-persons-uploads-at-once-are-few.md, 076).
      ...withUploadSlot(async (request, reply) => {
        await assertFeature(db, userOf(request), 'ownMusic');
        const declared = declaredLength(request);
        const track = await holdUploadSlot(db, request, reply, userOf(request), OWN_MUSIC_UPLOAD, (tx, others) =>
          admitTrackUpload(tx, userOf(request), declared, others),
        );
        if (track) admitted.set(request, track);
      }),
      ...described('Add a track (multipart: audio_file, and name or the file’s own name), Pro', {
        consumes: ['multipart/form-data'],
        response: {
          201: ownTrackSchema,
          400: apiErrorSchema,
          401: detailErrorSchema,
          403: planRequiredErrorSchema.or(detailErrorSchema),
          409: detailErrorSchema,
          413: apiErrorSchema,
          415: apiErrorSchema,
        },
      }),
    },
    async (request, reply) => {
      // Its file is staged no further than the room it was let in with (sent without a length, or beside another
      // upload keeping bytes: decision 081); one alone with a length was held to it before it was read, give or take
      // its fields, and its file is told its own size once it is in.
      const slotRoom = admitted.get(request)?.room;
      const room = slotRoom ? { field: 'audio_file', ...slotRoom } : undefined;
      const upload = await readUpload(
        request,
        ctx.mediaFiles.stagingRoot,
        { audio_file: OWN_MUSIC.maxFileBytes },
        { room },
      );
      const file = upload.files.audio_file;
      const track = await addOwnTrack(db, ctx.mediaFiles, ctx.media, currentUser(request), {
        staged: file?.staged,
        fileName: file?.fileName,
        name: upload.fields.name,
      });
      return reply.code(201).send(track);
    },
  );
  deleteById(API.myMusicTrack, 'Delete a track of one’s own music', (database, userId, id, log) =>
    deleteOwnTrack(database, ctx.mediaFiles, userId, id, log),
  );
};
