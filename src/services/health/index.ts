export { checkReadiness } from './readiness';
