import {
  ADMIN_API,
  adminCategoryListSchema,
  adminCategorySchema,
  categoriesOrderSchema,
  categoryMessagesOrderSchema,
  categoryEditSchema,
  categoryWriteSchema,
  idParamsSchema,
  messagesExportSchema,
  messagesFileSchema,
  messagesImportResultSchema,
  MESSAGES_IMPORT_LIMITS,
  messageEditSchema,
  messageWriteSchema,
  detailErrorSchema,
} from '@shared/contract';
import * as messages from '../messages-service';
import { errors, noContent, stillStaff, tags, type AdminRoutes } from './shared';

/** Message categories and their messages; import and export. */
export const registerMessageRoutes: AdminRoutes = ({ app, db }) => {
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
        summary: 'Reorder all categories (409 list_changed: the ids are not every category as it is now)',
        body: categoriesOrderSchema,
        response: { 200: adminCategoryListSchema, 409: detailErrorSchema, ...errors },
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
        response: { 200: messagesExportSchema, ...errors },
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
      // A NUL in a message is refused naming its category and message, as any other problem of the file is.
      config: { bodyTextCheckedBySchema: true, jsonValues: MESSAGES_IMPORT_LIMITS.values },
      // Staff only (refused before the body is read, admin/routes.ts): the largest file the contract takes.
      bodyLimit: MESSAGES_IMPORT_LIMITS.bytes,
      schema: {
        tags,
        summary: 'Import categories and messages (replaces the messages of the categories named)',
        body: messagesFileSchema,
        response: { 200: messagesImportResultSchema, ...errors },
      },
    },
    async (request) => messages.importMessages(db, request.body, stillStaff(request)),
  );
  app.patch(
    ADMIN_API.category,
    {
      schema: {
        tags,
        summary: 'Rename a category (409 changed_meanwhile: it is no longer named previous_name, when given)',
        params: idParamsSchema,
        body: categoryEditSchema,
        response: { 200: adminCategorySchema, 409: detailErrorSchema, ...errors },
      },
    },
    async (request) => messages.renameCategory(db, request.params.id, request.body.name, request.body.previous_name),
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
        summary: "Reorder a category's messages (409 list_changed: the ids are not every message as it is now)",
        params: idParamsSchema,
        body: categoryMessagesOrderSchema,
        response: { 200: adminCategorySchema, 409: detailErrorSchema, ...errors },
      },
    },
    async (request) => messages.reorderMessages(db, request.params.id, request.body.ids),
  );
  app.patch(
    ADMIN_API.message,
    {
      schema: {
        tags,
        summary:
          'Edit a message; answers its category (409 changed_meanwhile: it no longer reads previous_text, when given)',
        params: idParamsSchema,
        body: messageEditSchema,
        response: { 200: adminCategorySchema, 409: detailErrorSchema, ...errors },
      },
    },
    async (request) =>
      messages.editMessage(db, request.params.id, request.body.message_text, request.body.previous_text),
  );
  app.delete(
    ADMIN_API.message,
    { schema: { tags, summary: 'Delete a message', params: idParamsSchema, response: { ...noContent, ...errors } } },
    async (request, reply) => {
      await messages.deleteMessage(db, request.params.id);
      return reply.code(204).send(null);
    },
  );
};
