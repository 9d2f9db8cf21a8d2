export * from './row-texts';
export * from './rows';
export * from './delivery-status';
export * from './store';
export * from './fan-out';
export * from './learned-trims';
export * from './faults';
export * from './datasets';
