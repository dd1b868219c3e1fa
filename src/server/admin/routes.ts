import multipart from '@fastify/multipart';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  ADMIN_API,
  adminApplicationListSchema,
  adminApplicationSchema,
  adminAudioItemListSchema,
  adminAudioItemSchema,
  adminCategoryListSchema,
  adminCategorySchema,
  adminUserListSchema,
  adminUserQuerySchema,
  adminUserSchema,
  adminUserUpdateSchema,
  apiErrorSchema,
  audioItemParamsSchema,
  audioItemUpdateSchema,
  audioKindParamsSchema,
  categoryWriteSchema,
  idParamsSchema,
  messagesFileSchema,
  messagesImportResultSchema,
  messageWriteSchema,
  orderSchema,
  UPLOAD_LIMITS,
} from '@shared/contract';
import type { AppContext } from '../context';
import { currentUser } from '../auth/authenticate';
import { mediaDir } from '../paths';
import { readUpload } from './multipart';
import type { ContentStore } from './media-context';
import { getUser, listUsers, updateUser } from './users-service';
import * as messages from './messages-service';
import * as audio from './audio-service';
import * as applications from './applications-service';

// Staff-only administration (docs/product/api.md#admin). Every route answers 401 without a live token and 403 for
// a user who is not staff; the services are the same ones the admin CLI calls.

const errors = { 400: apiErrorSchema, 401: apiErrorSchema, 403: apiErrorSchema, 404: apiErrorSchema };
const uploadErrors = { ...errors, 413: apiErrorSchema, 415: apiErrorSchema };
const noContent = { 204: z.null().describe('Deleted') };

export const adminRoutes: FastifyPluginAsyncZod<AppContext> = async (app, ctx) => {
  await app.register(multipart, { limits: { fileSize: ctx.config.maxApplicationBytes + 1 } });
  // onRequest, not preHandler: a stranger is refused before the body (an upload) is read or validated.
  app.addHook('onRequest', ctx.authenticateStaff);
  // Every change staff make here is content the workers keep in memory: each of them drops it before
  // the change is answered, so the next read anywhere sees it.
  app.addHook('onSend', async (request, reply, payload) => {
    if (request.method !== 'GET' && request.method !== 'HEAD' && reply.statusCode < 400) {
      await ctx.notices
        .publish({ kind: 'content-changed' })
        .catch((error: unknown) => request.log.error({ err: error }, 'content change not announced'));
    }
    return payload;
  });
  const store: ContentStore = { db: ctx.database.db, mediaRoot: mediaDir(ctx.config.dataDir), mediaUrl: ctx.media.url };
  const db = ctx.database.db;
  const tags = ['admin'];
  const multipartBody = { consumes: ['multipart/form-data'] };

  // Users
  app.get(
    ADMIN_API.users,
    {
      schema: {
        tags,
        summary: 'Search users by e-mail',
        querystring: adminUserQuerySchema,
        response: { 200: adminUserListSchema, ...errors },
      },
    },
    async (request) => listUsers(db, request.query.search),
  );
  app.get(
    ADMIN_API.user,
    { schema: { tags, summary: 'One user', params: idParamsSchema, response: { 200: adminUserSchema, ...errors } } },
    async (request) => getUser(db, request.params.id),
  );
  app.patch(
    ADMIN_API.user,
    {
      schema: {
        tags,
        summary: "Set a user's plan or activate/deactivate them",
        params: idParamsSchema,
        body: adminUserUpdateSchema,
        response: { 200: adminUserSchema, ...errors },
      },
    },
    async (request) => {
      const user = await updateUser(db, request.params.id, request.body, currentUser(request).id);
      await ctx.notices.publish({ kind: 'user-changed', userId: user.id });
      return user;
    },
  );

  // Message categories and messages
  app.get(
    ADMIN_API.categories,
    {
      schema: {
        tags,
        summary: 'Categories with their messages',
        response: { 200: adminCategoryListSchema, ...errors },
      },
    },
    async () => messages.listCategories(db),
  );
  app.post(
    ADMIN_API.categories,
    {
      schema: {
        tags,
        summary: 'Create a category',
        body: categoryWriteSchema,
        response: { 201: adminCategorySchema, ...errors },
      },
    },
    async (request, reply) => reply.code(201).send(await messages.createCategory(db, request.body.name)),
  );
  app.put(
    ADMIN_API.categoriesOrder,
    {
      schema: {
        tags,
        summary: 'Reorder all categories',
        body: orderSchema,
        response: { 200: adminCategoryListSchema, ...errors },
      },
    },
    async (request) => messages.reorderCategories(db, request.body.ids),
  );
  app.get(
    ADMIN_API.categoriesExport,
    {
      schema: {
        tags,
        summary: 'Export categories and messages (JSON file)',
        response: { 200: messagesFileSchema, ...errors },
      },
    },
    async (_request, reply) =>
      reply
        .header('Content-Disposition', 'attachment; filename="innerwave-messages.json"')
        .send(await messages.exportMessages(db)),
  );
  app.post(
    ADMIN_API.categoriesImport,
    {
      schema: {
        tags,
        summary: 'Import categories and messages (replaces the messages of the categories named)',
        body: messagesFileSchema,
        response: { 200: messagesImportResultSchema, ...errors },
      },
    },
    async (request) => messages.importMessages(db, request.body),
  );
  app.patch(
    ADMIN_API.category,
    {
      schema: {
        tags,
        summary: 'Rename a category',
        params: idParamsSchema,
        body: categoryWriteSchema,
        response: { 200: adminCategorySchema, ...errors },
      },
    },
    async (request) => messages.renameCategory(db, request.params.id, request.body.name),
  );
  app.delete(
    ADMIN_API.category,
    {
      schema: {
        tags,
        summary: 'Delete a category and its messages',
        params: idParamsSchema,
        response: { ...noContent, ...errors },
      },
    },
    async (request, reply) => {
      await messages.deleteCategory(db, request.params.id);
      return reply.code(204).send(null);
    },
  );
  app.post(
    ADMIN_API.categoryMessages,
    {
      schema: {
        tags,
        summary: 'Add a message',
        params: idParamsSchema,
        body: messageWriteSchema,
        response: { 201: adminCategorySchema, ...errors },
      },
    },
    async (request, reply) =>
      reply.code(201).send(await messages.addMessage(db, request.params.id, request.body.message_text)),
  );
  app.put(
    ADMIN_API.categoryMessagesOrder,
    {
      schema: {
        tags,
        summary: "Reorder a category's messages",
        params: idParamsSchema,
        body: orderSchema,
        response: { 200: adminCategorySchema, ...errors },
      },
    },
    async (request) => messages.reorderMessages(db, request.params.id, request.body.ids),
  );
  app.patch(
    ADMIN_API.message,
    {
      schema: {
        tags,
        summary: 'Edit a message',
        params: idParamsSchema,
        body: messageWriteSchema,
        response: { 200: adminCategorySchema, ...errors },
      },
    },
    async (request) => messages.editMessage(db, request.params.id, request.body.message_text),
  );
  app.delete(
    ADMIN_API.message,
    { schema: { tags, summary: 'Delete a message', params: idParamsSchema, response: { ...noContent, ...errors } } },
    async (request, reply) => {
      await messages.deleteMessage(db, request.params.id);
      return reply.code(204).send(null);
    },
  );

  // Audio items
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
      schema: {
        tags,
        summary: 'Upload an audio item (multipart: name, description, audio_file, cover_image)',
        ...multipartBody,
        params: audioKindParamsSchema,
        response: { 201: adminAudioItemSchema, ...uploadErrors },
      },
    },
    async (request, reply) => {
      const upload = await readUpload(request, store.mediaRoot, audioLimits);
      const item = await audio.createAudioItem(store, {
        kind: request.params.kind,
        fields: upload.fields,
        audio: upload.files.audio_file?.staged,
        cover: upload.files.cover_image?.staged,
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
      schema: {
        tags,
        summary: 'Replace the audio file and/or cover (multipart: audio_file, cover_image)',
        ...multipartBody,
        params: audioItemParamsSchema,
        response: { 200: adminAudioItemSchema, ...uploadErrors },
      },
    },
    async (request) => {
      const upload = await readUpload(request, store.mediaRoot, audioLimits);
      return audio.replaceAudioFiles(store, request.params.kind, request.params.id, {
        audio: upload.files.audio_file?.staged,
        cover: upload.files.cover_image?.staged,
      });
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
      await audio.deleteAudioItem(store, request.params.kind, request.params.id);
      return reply.code(204).send(null);
    },
  );

  // Desktop applications
  app.get(
    ADMIN_API.applications,
    { schema: { tags, summary: 'Desktop applications', response: { 200: adminApplicationListSchema, ...errors } } },
    async () => applications.listApplications(store),
  );
  app.post(
    ADMIN_API.applications,
    {
      schema: {
        tags,
        summary: 'Upload an installer (multipart: application_version, description, application_file)',
        ...multipartBody,
        response: { 201: adminApplicationSchema, ...uploadErrors },
      },
    },
    async (request, reply) => {
      const upload = await readUpload(request, store.mediaRoot, { application_file: ctx.config.maxApplicationBytes });
      const file = upload.files.application_file;
      const created = await applications.createApplication(store, {
        fields: upload.fields,
        fileName: file?.fileName,
        installer: file?.staged,
      });
      return reply.code(201).send(created);
    },
  );
  app.delete(
    ADMIN_API.application,
    {
      schema: {
        tags,
        summary: 'Delete a desktop application and its file',
        params: idParamsSchema,
        response: { ...noContent, ...errors },
      },
    },
    async (request, reply) => {
      await applications.deleteApplication(store, request.params.id);
      return reply.code(204).send(null);
    },
  );
};
