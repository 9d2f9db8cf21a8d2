export { checkReadiness, noteRequestError } from './readiness';
