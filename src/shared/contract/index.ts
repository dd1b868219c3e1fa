export * from './errors';
export * from './fields';
export * from './auth';
export * from './profile';
export * from './content';
export * from './health';
export * from './paths';
export * from './admin';
