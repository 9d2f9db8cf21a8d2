export * from './row-texts';
export * from './rows';
export * from './store';
