export { checkOutputFile, claimPartialFile, type OutputFileInput } from './output-file';
