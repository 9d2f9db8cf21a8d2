export { createBackup } from './create-backup';
export * from './schemas';
