export { deleteEnvironment } from './delete-environment';
export { createEnvironment, listEnvironments, resolveEnvironment, updateEnvironment, updateEnvironmentOrigins } from './environments';
export { rollEnvironmentKey } from './roll-key';
export * from './schemas';
export type { EnvironmentScope } from './scope';
