export { LATEST_IMPORTS, statsOverview } from './overview';
export * from './schemas';
