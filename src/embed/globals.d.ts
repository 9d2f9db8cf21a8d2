// Defined by scripts/embed-build.mjs at bundle time.
declare const IMPORTD_READ_WORKER: string;
declare const IMPORTD_SDK_VERSION: string;
