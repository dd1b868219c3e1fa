import type { JobStatusName } from '@shared/contract';

// The durable job queue's table lives with the others in db/schema.ts
// (docs/decisions/018-a-job-table-in-postgresql.md).

export { jobs } from '../db/schema';
export type JobStatus = JobStatusName;
