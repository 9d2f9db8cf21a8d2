export { createEnvironment, listEnvironments, resolveEnvironment, updateEnvironmentOrigins } from './environments';
export * from './schemas';
