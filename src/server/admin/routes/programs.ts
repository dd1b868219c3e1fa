import {
  ADMIN_API,
  adminProgramListSchema,
  adminProgramSchema,
  adminProgramWriteSchema,
  adminProgramWriteSchemaOf,
  detailErrorSchema,
  PROGRAM_BODY_BYTES,
  PROGRAM_BODY_VALUES,
  programParamsSchema,
} from '@shared/contract';
import * as programs from '../../guidance/programs';
import { bodyLettingStoredTextThrough } from '../../http/request-body';
import { errors, noContent, tags, type AdminRoutes } from './shared';

/** Programs (docs/product/guidance.md#programs): listed, read, added, replaced and deleted by staff. */
export const registerProgramRoutes: AdminRoutes = ({ app, db }) => {
  app.get(
    ADMIN_API.programs,
    { schema: { tags, summary: 'Programs, in their order', response: { 200: adminProgramListSchema, ...errors } } },
    async () => programs.adminListPrograms(db),
  );
  app.post(
    ADMIN_API.programs,
    {
      // Staff only (refused before the body is read, admin/routes.ts): the largest program the contract takes.
      bodyLimit: PROGRAM_BODY_BYTES,
      config: { jsonValues: PROGRAM_BODY_VALUES },
      schema: {
        tags,
        summary: 'Add a program (at the end of the list); 400 when its slug is taken',
        body: adminProgramWriteSchema,
        response: { 201: adminProgramSchema, ...errors },
      },
    },
    async (request, reply) => reply.code(201).send(await programs.createProgram(db, request.body)),
  );
  app.get(
    ADMIN_API.program,
    {
      schema: {
        tags,
        summary: 'One program with its days',
        params: programParamsSchema,
        response: { 200: adminProgramSchema, ...errors },
      },
    },
    async (request) => programs.adminGetProgram(db, request.params.slug),
  );
  app.put(
    ADMIN_API.program,
    {
      bodyLimit: PROGRAM_BODY_BYTES,
      config: { jsonValues: PROGRAM_BODY_VALUES },
      schema: {
        tags,
        summary:
          'Replace a program’s text and days (the slug may change; progress follows each day’s from_day); 409 when updated_at is given and someone saved the program since',
        params: programParamsSchema,
        body: adminProgramWriteSchema,
        response: { 200: adminProgramSchema, 409: detailErrorSchema, ...errors },
      },
      // A refused body reaches the handler, which checks it again against the texts stored.
      attachValidation: true,
    },
    async (request) => {
      const { slug } = request.params;
      // A save sends back every day's texts, one stored before decision 063 too (decision 138).
      const body = await bodyLettingStoredTextThrough(request, async () => {
        const stored = await programs.storedProgramTexts(db, slug);
        return stored && adminProgramWriteSchemaOf(stored);
      });
      return programs.replaceProgram(db, slug, body);
    },
  );
  app.delete(
    ADMIN_API.program,
    {
      schema: {
        tags,
        summary: 'Delete a program and everyone’s progress in it',
        params: programParamsSchema,
        response: { ...noContent, ...errors },
      },
    },
    async (request, reply) => {
      await programs.deleteProgram(db, request.params.slug);
      return reply.code(204).send(null);
    },
  );
};
