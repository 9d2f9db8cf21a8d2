export { issueSession, revokeSession } from './sessions';
export * from './schemas';
