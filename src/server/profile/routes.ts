import { Readable } from 'node:stream';
import multipart from '@fastify/multipart';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  API,
  detailErrorSchema,
  MESSAGES,
  profileSchema,
  profileUpdateFieldsOf,
  userExportSchema,
  validationErrorSchema,
  type UserExport,
} from '@shared/contract';
import { PROFILE_IMAGE } from '@shared/constants';
import { currentUser } from '../auth/authenticate';
import type { AppContext } from '../context';
import { assertStorableText } from '../http/body-parsers';
import { declaredLength } from '../http/request-body';
import { ApiError, badRequest, tooManyRequests, unsupportedMediaType } from '../http/errors';
import { personKey } from '../cluster/rate-limit-store';
import {
  contentAddressedName,
  placeAndReference,
  releaseAfterCommit,
  stageBuffer,
  type StagedFile,
} from '../media/store';
import { formBodySize, type FormLimits } from '../media/form-data';
import { multipartParts } from '../media/upload';
import { holdUploadSlot, withUploadSlot } from '../media/upload-slots';
import { normaliseProfileImage, NotAnImageError } from './image';
import { exportFileName, ExportsUnderWay, exportUserJson } from './export';
import { clearProfileImage, createProfileReader, updateProfile } from './service';

const PROFILE_IMAGE_FOLDER = 'profile-images';
const NOT_AN_IMAGE = 'Upload a valid image. The file you uploaded was either not an image or a corrupted image.';

/**
 * Profile pictures a person may send in an hour. Each is decoded and re-encoded, up to 40 megapixels: half a
 * second of a core, so a script sending them without end kept both cores of a small server busy. A person
 * trying pictures sends a handful.
 */
export const PROFILE_IMAGES_PER_HOUR = 30;
const HOUR_MS = 60 * 60 * 1000;

const PROFILE_FORM_FIELDS = { fields: 10, fieldSize: 4096 };
const PROFILE_FORM_LIMITS: FormLimits = {
  fileSize: PROFILE_IMAGE.maxUploadBytes,
  files: 1,
  ...PROFILE_FORM_FIELDS,
  parts: 12,
  // The picture at its limit and every field at its: a body past that is refused as a picture too large is (or,
  // its fields past theirs, as a request too large: formParts).
  bodySize: formBodySize([PROFILE_IMAGE.maxUploadBytes], PROFILE_FORM_FIELDS),
};
/**
 * The largest body the profile's fields alone make. A body declared no larger (names, as the portal sends them) takes
 * no upload slot: what it may bring is no more than a JSON body, read without one (decision 076).
 */
const PROFILE_FIELDS_BODY = formBodySize([], PROFILE_FORM_FIELDS);

export const profileRoutes: FastifyPluginAsyncZod<AppContext> = async (app, ctx) => {
  const exportsUnderWay = new ExportsUnderWay();
  const { db } = ctx.database;
  const files = ctx.mediaFiles;
  const security = [{ bearerAuth: [] }];
  const readProfile = createProfileReader(db, ctx.media, ctx.notices);
  /** The profile calls are the signed-in person's: their bearer token is checked first (onRequest: a stranger's body is never read). */
  const signedIn = <S extends object>(summary: string, schema: S) => ({
    onRequest: ctx.authenticate,
    schema: { tags: ['profile'], summary, security, ...schema },
  });

  // The multipart content type (the body is read by multipartParts, within PROFILE_FORM_LIMITS).
  await app.register(multipart);
  // Counted per person in the shared rate-limit store (Redis, or the primary's for its workers).
  const imageUploads = app.createRateLimit({
    max: PROFILE_IMAGES_PER_HOUR,
    timeWindow: HOUR_MS,
    keyGenerator: (request) => personKey('profile-image', currentUser(request).id),
  });

  app.get(
    API.profile,
    signedIn('The signed-in user’s profile', {
      response: { 200: profileSchema, 401: detailErrorSchema },
    }),
    async (request) => readProfile(currentUser(request).id),
  );

  app.put(
    API.profileUpdate,
    {
      // A body that may bring a picture is among the person's uploads under way, before it is read
      // (docs/decisions/074-a-persons-uploads-at-once-are-few.md); names alone are not (076).
      ...withUploadSlot(async (request, reply) => {
        if ((declaredLength(request) ?? Infinity) > PROFILE_FIELDS_BODY)
          await holdUploadSlot(db, request, reply, currentUser(request).id, 'profile');
      }),
      ...signedIn('Update names and, optionally, the profile image (multipart/form-data)', {
        description: `Fields first_name and last_name (required) and an optional file profile_image. Other fields are ignored. 429 past ${PROFILE_IMAGES_PER_HOUR} pictures an hour by the person (nothing changes).`,
        consumes: ['multipart/form-data'],
        response: {
          200: profileSchema,
          400: validationErrorSchema,
          401: detailErrorSchema,
          409: detailErrorSchema,
          413: detailErrorSchema,
          415: detailErrorSchema,
          429: detailErrorSchema,
        },
      }),
    },
    async (request) => {
      const user = currentUser(request);
      if (!request.isMultipart()) throw unsupportedMediaType(MESSAGES.expectedMultipart);

      const fields: Record<string, string> = {};
      let image: Buffer | undefined;
      // Parser errors (limits, a broken body) are answered by the error handler's table.
      for await (const part of multipartParts(request, PROFILE_FORM_LIMITS)) {
        if (part.type === 'file') {
          // toBuffer() stops reading at the limit and throws (413), so nothing oversize is kept.
          const bytes = await part.toBuffer();
          if (part.fieldname === 'profile_image' && bytes.length > 0) image = bytes;
        } else if (typeof part.value === 'string') {
          fields[part.fieldname] = part.value;
        }
      }
      assertStorableText(fields);

      const parsed = profileUpdateFieldsOf(await readProfile(user.id)).safeParse({
        first_name: fields.first_name,
        last_name: fields.last_name,
      });
      if (!parsed.success) {
        // Each field's first refusal in its own words (missing, blank, too long, a direction or control character).
        const errors: Record<string, string[]> = {};
        for (const issue of parsed.error.issues) errors[String(issue.path[0])] ??= [issue.message];
        throw badRequest(errors);
      }

      let newImage: { staged: StagedFile; relative: string } | undefined;
      if (image) {
        const counted = await imageUploads(request);
        if (!counted.isAllowed && counted.isExceeded) throw tooManyRequests(counted.ttlInSeconds);
        let jpeg: Buffer;
        try {
          jpeg = await normaliseProfileImage(image);
        } catch (error) {
          if (error instanceof NotAnImageError) throw badRequest({ profile_image: [NOT_AN_IMAGE] });
          throw error;
        }
        const staged = await stageBuffer(jpeg, files.stagingRoot);
        newImage = { staged, relative: `${PROFILE_IMAGE_FOLDER}/${contentAddressedName(staged.sha256, '.jpg')}` };
      }

      const changes = {
        firstName: parsed.data.first_name,
        lastName: parsed.data.last_name,
        profileImage: newImage?.relative,
      };
      const { replacedImage } = await placeAndReference(db, files, newImage ? [newImage] : [], (tx) =>
        updateProfile(tx, user, changes),
      );
      // After the commit: until then the old row still named the old file.
      await releaseAfterCommit(db, files, [replacedImage], request.log);
      await ctx.notices.publish({ kind: 'user-changed', userId: user.id });
      return readProfile(user.id);
    },
  );

  app.delete(
    API.profileImage,
    signedIn('Remove the profile image; answers the profile', {
      response: { 200: profileSchema, 401: detailErrorSchema },
    }),
    async (request) => {
      const user = currentUser(request);
      const removed = await clearProfileImage(db, user.id);
      if (removed) {
        await releaseAfterCommit(db, files, [removed], request.log);
        await ctx.notices.publish({ kind: 'user-changed', userId: user.id });
      }
      return readProfile(user.id);
    },
  );

  app.get(
    API.userExport,
    signedIn('Everything kept about the signed-in user, as a JSON download', {
      response: { 200: userExportSchema, 401: detailErrorSchema, 429: detailErrorSchema, 503: detailErrorSchema },
    }),
    async (request, reply) => {
      const release = exportsUnderWay.take(currentUser(request).id);
      if (release instanceof ApiError) throw release;
      // Its place is given back once the answer (the file, or a refusal) has ended, or the download broke off.
      reply.raw.once('finish', release).once('close', release);
      const pieces = await exportUserJson(
        { db, readProfile, publicUrl: ctx.config.publicUrl },
        currentUser(request).id,
      );
      // Fastify sends a stream as it is read, past the response's serializer: the sections were checked against
      // the contract as they were written, and the schema stays for the API's documentation.
      return reply
        .header('Content-Disposition', `attachment; filename="${exportFileName()}"`)
        .header('Cache-Control', 'no-store')
        .type('application/json; charset=utf-8')
        .send(Readable.from(pieces) as unknown as UserExport);
    },
  );
};
