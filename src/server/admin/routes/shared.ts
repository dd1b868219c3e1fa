import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { apiErrorSchema } from '@shared/contract';
import type { AppContext } from '../../context';
import type { Db } from '../../db/client';
import type { ContentStore, StaffCheck } from '../media-context';
import { assertStillSignedIn, currentUser } from '../../auth/authenticate';
import { holdUploadSlot, withUploadSlot } from '../../media/upload-slots';

// What the admin's route files share: error responses, tags, and what each is given.

export const errors = { 400: apiErrorSchema, 401: apiErrorSchema, 403: apiErrorSchema, 404: apiErrorSchema };
export const uploadErrors = { ...errors, 409: apiErrorSchema, 413: apiErrorSchema, 415: apiErrorSchema };
export const noContent = { 204: z.null().describe('Deleted') };
export const tags = ['admin'];
export const multipartBody = { consumes: ['multipart/form-data'] };

type AdminApp = Parameters<FastifyPluginAsyncZod<AppContext>>[0];

/** Registers a group of admin routes on the staff-only plugin. */
export type AdminRoutes = (deps: { app: AdminApp; ctx: AppContext; store: ContentStore; db: Db }) => void;

/** A write's check, after its body and as what it sent is kept, that its caller is still staff, signed in. */
export function stillStaff(request: FastifyRequest): StaffCheck {
  const staff = currentUser(request);
  return (db) => assertStillSignedIn(db, staff, { staffOnly: true });
}

/** An upload's slot among its staff member's uploads under way, taken before its body is read (decision 074). */
export const staffUploadSlot = (db: Db) =>
  withUploadSlot((request, reply) => holdUploadSlot(db, request, reply, currentUser(request).id, 'staff-media'));
