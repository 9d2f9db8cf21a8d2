export { datasetApply, datasetOf, type KeyedApply } from './apply';
export { exportRecords, type RecordsExport } from './export-records';
export { listMissing } from './list-missing';
export { listRecords } from './list-records';
export * from './schemas';
