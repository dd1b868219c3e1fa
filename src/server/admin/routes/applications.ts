import { readUpload } from '../../media/upload';
import { ADMIN_API, adminApplicationListSchema, adminApplicationSchema, idParamsSchema } from '@shared/contract';
import * as applications from '../applications-service';
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

/** Desktop applications: installers uploaded and deleted. */
export const registerApplicationRoutes: AdminRoutes = ({ app, ctx, store, db }) => {
  app.get(
    ADMIN_API.applications,
    { schema: { tags, summary: 'Desktop applications', response: { 200: adminApplicationListSchema, ...errors } } },
    async () => applications.listApplications(store),
  );
  app.post(
    ADMIN_API.applications,
    {
      ...staffUploadSlot(db),
      schema: {
        tags,
        summary: 'Upload an installer (multipart: application_version, description, application_file)',
        ...multipartBody,
        response: { 201: adminApplicationSchema, ...uploadErrors },
      },
    },
    async (request, reply) => {
      const upload = await readUpload(request, store.files.stagingRoot, {
        application_file: ctx.config.maxApplicationBytes,
      });
      const file = upload.files.application_file;
      const created = await applications.createApplication(store, {
        fields: upload.fields,
        fileName: file?.fileName,
        installer: file?.staged,
        assertUploader: stillStaff(request),
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
      await applications.deleteApplication(store, request.params.id, request.log);
      return reply.code(204).send(null);
    },
  );
};
