export { deleteEndUserData } from './delete-end-user';
export { deleteImport } from './delete-import';
export { purgeExpiredImports, scheduleRetention } from './purge-expired';
export * from './schemas';
