export { checkUploadLength, createUpload, parseUploadMetadata, uploadFormat, type NewUpload, type TusMetadata, type UploadOwner } from './create-upload';
export { csvRows, type CsvOptions } from './csv-rows';
export { delimiterOf, fileRows, type FileRows } from './file-rows';
export { findOwnUpload, getUpload, toUploadView } from './get-upload';
export { processUpload } from './process-upload';
export { removeOrphanedFiles, sweepUploads, type SweepResult } from './sweep-uploads';
export { checkFilesDir, FilesDirError, removeUploadFile, uploadFile, uploadsDir } from './upload-files';
export * from './schemas';
export { byteRange, importFile, type ImportFile } from './import-file';
